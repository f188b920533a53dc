// swift-tools-version: 6.2
import PackageDescription

// A URL shortener on Hummingbird and PostgreSQL whose object graph comes from Objection: one root
// injector for the process, whose service runs the database client before the singletons that query
// it are built; one request scope per request, and a transaction scope inside it; an ordered shutdown
// (server, then database client, then injector) driven by service-lifecycle.
let package = Package(
    name: "HummingbirdServer",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named so that targets can refer to it whatever the checkout's directory is called.
        .package(name: "Objection", path: "../.."),
        // The two integration packages of this repository: the request scope middleware and context,
        // and the injector as a service-lifecycle `Service`.
        .package(path: "../../Integrations/ObjectionHummingbird"),
        .package(path: "../../Integrations/ObjectionServiceLifecycle"),
        // Spans and metrics of the injector's work, kept in the process: the start-up logged as a
        // tree, `GET /traces`, and `GET /metrics` from swift-prometheus's registry.
        .package(path: "../../Integrations/ObjectionObservability"),
        // The settings, read by the providers from a swift-configuration `ConfigReader` over the
        // environment, a bad one failing start-up with the setting's key and binding path.
        .package(path: "../../Integrations/ObjectionConfiguration"),
        // The API described in openapi.yaml, its code generated at build time by the generator's
        // plugin, served by Hummingbird's OpenAPI transport with a request scope per operation.
        .package(path: "../../Integrations/ObjectionOpenAPI"),
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", exact: "1.13.4"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", exact: "2.1.0"),
        .package(url: "https://github.com/apple/swift-configuration", exact: "1.4.0", traits: []),
        // What the tests share with the other packages' tests: the gate, the log capture, and the
        // test database with its schemas and connection budget.
        .package(path: "../../Integrations/ObjectionTestSupport"),
        // Default traits off: the example needs neither swift-configuration nor full Foundation.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
        // Hummingbird already builds swift-distributed-tracing and swift-metrics; swift-prometheus
        // is one small module over swift-metrics' core.
        .package(url: "https://github.com/apple/swift-distributed-tracing", exact: "1.7.3"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        // CoreMetrics' MetricsSystem, bootstrapped with the Prometheus factory for the framework's
        // MetricsMiddleware; Hummingbird already builds it.
        .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
        // NIOCore for the server channel type, NIOConcurrencyHelpers for locks the thread sanitizer
        // understands, NIOHTTP1 for the parser error Hummingbird handles itself, NIOPosix and NIOHTTP1
        // for the tests' HTTP client; Hummingbird already builds them.
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        // FilePath, for the tests' reloading settings file; swift-configuration already builds it.
        .package(url: "https://github.com/apple/swift-system", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "LinkShortener",
            dependencies: [
                .product(name: "Objection", package: "Objection"),
                .product(name: "ObjectionHummingbird", package: "ObjectionHummingbird"),
                .product(name: "ObjectionServiceLifecycle", package: "ObjectionServiceLifecycle"),
                .product(name: "ObjectionTracing", package: "ObjectionObservability"),
                .product(name: "ObjectionMetrics", package: "ObjectionObservability"),
                .product(name: "ObjectionConfiguration", package: "ObjectionConfiguration"),
                .product(name: "ObjectionOpenAPI", package: "ObjectionOpenAPI"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .executableTarget(
            name: "link-shortener",
            dependencies: [
                "LinkShortener",
                .product(name: "Objection", package: "Objection"),
                .product(name: "ObjectionServiceLifecycle", package: "ObjectionServiceLifecycle"),
                .product(name: "ObjectionConfiguration", package: "ObjectionConfiguration"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "LinkShortenerTests",
            dependencies: [
                "LinkShortener",
                .product(name: "Objection", package: "Objection"),
                .product(name: "ObjectionHummingbird", package: "ObjectionHummingbird"),
                .product(name: "ObjectionServiceLifecycle", package: "ObjectionServiceLifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "TestSupport", package: "ObjectionTestSupport"),
                .product(name: "LoggingTestSupport", package: "ObjectionTestSupport"),
                .product(name: "PostgresTestSupport", package: "ObjectionTestSupport"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "ObjectionConfiguration", package: "ObjectionConfiguration"),
                .product(name: "SystemPackage", package: "swift-system"),
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
