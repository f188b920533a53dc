// swift-tools-version: 6.2
import PackageDescription

// A small to-do service as a Hummingbird 2 application is usually written — a repository behind a
// protocol, a file-backed one for the server and an in-memory one for the tests, a controller
// generic over it, the server run by `runService()` — ported to Objection by following the article
// "Adopting Objection in an existing server". Its git history holds the application before the port.
let package = Package(
    name: "TodoAdoption",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Objection", path: "../.."),
        .package(name: "ObjectionHummingbird", path: "../../Integrations/ObjectionHummingbird"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        .target(
            name: "TodoApp",
            dependencies: [
                .product(name: "Objection", package: "Objection"),
                .product(name: "ObjectionHummingbird", package: "ObjectionHummingbird"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        .executableTarget(
            name: "todo-server",
            dependencies: [
                "TodoApp",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ObjectionHummingbird", package: "ObjectionHummingbird"),
            ]
        ),
        .testTarget(
            name: "TodoAppTests",
            dependencies: [
                "TodoApp",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
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
