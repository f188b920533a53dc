// swift-tools-version: 6.2
import PackageDescription

// Objection with swift-configuration: a ConfigReader bound in the injector and read by providers,
// a missing or malformed setting failing as an InjectionError that names its key and the binding
// path, never its value. A package of its own, so that the library's resolution stays empty.
let package = Package(
    name: "ObjectionConfiguration",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ObjectionConfiguration", targets: ["ObjectionConfiguration"])
    ],
    dependencies: [
        // Named so that targets can refer to it whatever the checkout's directory is called.
        .package(name: "Objection", path: "../.."),
        // Default traits off: neither JSON files nor reloading are needed to read settings.
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0", traits: []),
    ],
    targets: [
        .target(
            name: "ObjectionConfiguration",
            dependencies: [
                .product(name: "Objection", package: "Objection"),
                .product(name: "Configuration", package: "swift-configuration"),
            ]
        ),
        .testTarget(
            name: "ObjectionConfigurationTests",
            dependencies: [
                "ObjectionConfiguration",
                .product(name: "Objection", package: "Objection"),
                .product(name: "Configuration", package: "swift-configuration"),
            ]
        ),
    ]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    target.swiftSettings = settings
}
