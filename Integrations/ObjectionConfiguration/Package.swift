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
        // JSON and YAML files: a setting is read alike from every provider swift-configuration
        // ships, and the tests show it for each.
        // Reloading: `ReloadingFileProvider`, which the refresher's tests change under it.
        .package(
            url: "https://github.com/apple/swift-configuration", from: "1.4.0", traits: ["JSON", "YAML", "Reloading"]),
        // The refresher is a service of the lifecycle's `ServiceGroup`.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The tests write JSON and YAML files and name them by `FilePath`.
        .package(url: "https://github.com/apple/swift-system", from: "1.5.0"),
        // The tests' gates.
        .package(path: "../ObjectionTestSupport"),
    ],
    targets: [
        .target(
            name: "ObjectionConfiguration",
            dependencies: [
                .product(name: "Objection", package: "Objection"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "ObjectionConfigurationTests",
            dependencies: [
                "ObjectionConfiguration",
                .product(name: "Objection", package: "Objection"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
                .product(name: "TestSupport", package: "ObjectionTestSupport"),
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
