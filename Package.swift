// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Objection",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Objection", targets: ["Objection"]),
        .library(name: "ObjectionTesting", targets: ["ObjectionTesting"]),
    ],
    targets: [
        .target(name: "Objection"),
        .target(name: "ObjectionTesting", dependencies: ["Objection"]),
        .executableTarget(name: "objection-demo", dependencies: ["Objection"]),
        .testTarget(name: "ObjectionTests", dependencies: ["Objection", "ObjectionTesting"]),
    ]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}

// The tests are compiled as code that adopts NonisolatedNonsendingByDefault would be, so that the
// library is checked against it. The library itself does not adopt it yet: with it, a debug build
// of the tests crashed in a nonsending async method (Swift 6.3.1), which its ASan build did not.
for target in package.targets where target.type == .test {
    target.swiftSettings?.append(.enableUpcomingFeature("NonisolatedNonsendingByDefault"))
}
