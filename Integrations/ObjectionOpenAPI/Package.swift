// swift-tools-version: 6.2
import PackageDescription

// Objection for swift-openapi-generator's servers: one request scope per operation, alive until
// the response body has been written, injection errors as opaque 500s. A package of its own, so
// that the library's resolution stays empty. The middleware depends on the runtime alone, so it
// serves under any transport; the tests run it under Hummingbird's and Vapor's.
let package = Package(
    name: "ObjectionOpenAPI",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ObjectionOpenAPI", targets: ["ObjectionOpenAPI"])
    ],
    dependencies: [
        // Named so that targets can refer to it whatever the checkout's directory is called.
        .package(name: "Objection", path: "../.."),
        // Lower bounds, not exact versions: an application resolves its own.
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The tests: code generated from their openapi.yaml by the generator's build plugin,
        // served over real sockets by both transports, called with AsyncHTTPClient.
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
        .package(url: "https://github.com/vapor/swift-openapi-vapor", from: "1.2.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(path: "../ObjectionTestSupport"),
    ],
    targets: [
        .target(
            name: "ObjectionOpenAPI",
            dependencies: [
                .product(name: "Objection", package: "Objection"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ObjectionOpenAPITests",
            dependencies: [
                "ObjectionOpenAPI",
                .product(name: "Objection", package: "Objection"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "OpenAPIVapor", package: "swift-openapi-vapor"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "TestSupport", package: "ObjectionTestSupport"),
                .product(name: "LoggingTestSupport", package: "ObjectionTestSupport"),
                .product(name: "ServerFixtures", package: "ObjectionTestSupport"),
            ],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
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
