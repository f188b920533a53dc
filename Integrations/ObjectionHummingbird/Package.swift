// swift-tools-version: 6.2
import PackageDescription

// Objection for Hummingbird: one request scope per request, resolution from the request context,
// injection errors as opaque 500s, and a request id in the logger and the response. A package of
// its own, so that the library's resolution stays empty.
let package = Package(
    name: "ObjectionHummingbird",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ObjectionHummingbird", targets: ["ObjectionHummingbird"])
    ],
    dependencies: [
        // Named so that targets can refer to it whatever the checkout's directory is called.
        .package(name: "Objection", path: "../.."),
        // Default traits off: the integration needs neither swift-configuration nor full Foundation.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // Imported directly for `Logger`, `HTTPField`, `HTTPParserError` and `ByteBuffer`; Hummingbird
        // already builds them. Lower bounds, not exact versions: an application resolves its own.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The tests' raw HTTP exchange and log capture, shared with the other packages' tests.
        .package(path: "../ObjectionTestSupport"),
        // The tests run the server and the injector in one ServiceGroup, as an application does.
        .package(path: "../ObjectionServiceLifecycle"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "ObjectionHummingbird",
            dependencies: [
                .product(name: "Objection", package: "Objection"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                // `Application.addInjector`: the injector as one of the application's services;
                // `runService(gracefulShutdownTimeout:)`: a bound on the whole shutdown.
                .product(name: "ObjectionServiceLifecycle", package: "ObjectionServiceLifecycle"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "ObjectionHummingbirdTests",
            dependencies: [
                "ObjectionHummingbird",
                .product(name: "Objection", package: "Objection"),
                .product(name: "ObjectionTesting", package: "Objection"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "TestSupport", package: "ObjectionTestSupport"),
                .product(name: "LoggingTestSupport", package: "ObjectionTestSupport"),
                .product(name: "ServerFixtures", package: "ObjectionTestSupport"),
                .product(name: "ObjectionServiceLifecycle", package: "ObjectionServiceLifecycle"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
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
