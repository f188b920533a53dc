// swift-tools-version: 6.2
import PackageDescription

// Objection for Vapor 4: the application's injector started and shut down in Vapor's own
// lifecycle, one request scope per request, resolution from the request, and injection errors as
// opaque 500s. A package of its own, so that the library's resolution stays empty.
let package = Package(
    name: "ObjectionVapor",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ObjectionVapor", targets: ["ObjectionVapor"])
    ],
    dependencies: [
        // Named so that targets can refer to it whatever the checkout's directory is called.
        .package(name: "Objection", path: "../.."),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
        // The injector's services (`asService()`, a database client) run in the application's
        // lifecycle through ObjectionServiceLifecycle's `InjectorService`; Vapor already builds
        // swift-service-lifecycle.
        .package(path: "../ObjectionServiceLifecycle"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Imported directly for `Logger` and the raw-socket tests; Vapor already builds them. Lower
        // bounds, not exact versions: an application resolves its own.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // The tests' signals, event log, raw HTTP exchange and log capture, shared with the other
        // packages' tests.
        .package(path: "../ObjectionTestSupport"),
    ],
    targets: [
        .target(
            name: "ObjectionVapor",
            dependencies: [
                .product(name: "Objection", package: "Objection"),
                .product(name: "ObjectionServiceLifecycle", package: "ObjectionServiceLifecycle"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "ObjectionVaporTests",
            dependencies: [
                "ObjectionVapor",
                .product(name: "Objection", package: "Objection"),
                .product(name: "ObjectionServiceLifecycle", package: "ObjectionServiceLifecycle"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ObjectionTesting", package: "Objection"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "VaporTesting", package: "vapor"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "TestSupport", package: "ObjectionTestSupport"),
                .product(name: "LoggingTestSupport", package: "ObjectionTestSupport"),
                .product(name: "ServerFixtures", package: "ObjectionTestSupport"),
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
