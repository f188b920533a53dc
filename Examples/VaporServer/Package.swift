// swift-tools-version: 6.2
import PackageDescription

// A small ledger API on Vapor 4 and PostgreSQL whose object graph comes from Objection: one root
// injector for the process, started when the application boots and shut down after its server
// stops (ObjectionVapor's `app.useInjector`); one request scope per request, and a database
// transaction scope inside it, committed when the handler succeeds and rolled back when it throws.
let package = Package(
    name: "VaporServer",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named so that targets can refer to it whatever the checkout's directory is called.
        .package(name: "Objection", path: "../.."),
        // This repository's Vapor integration: the injector in the application's lifecycle, the
        // request scope middleware, `req.resolve`.
        .package(path: "../../Integrations/ObjectionVapor"),
        // The settings, read by the providers from a swift-configuration `ConfigReader` over the
        // environment, a bad one failing the boot with the setting's key and binding path.
        .package(path: "../../Integrations/ObjectionConfiguration"),
        .package(url: "https://github.com/apple/swift-configuration", exact: "1.4.0", traits: []),
        // What the tests share with the other packages' tests: the gate, the log capture, and the
        // test database with its schemas and connection budget.
        .package(path: "../../Integrations/ObjectionTestSupport"),
        .package(url: "https://github.com/vapor/vapor", exact: "4.122.3"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        // NIOCore and NIOHTTP1 for statuses and headers; AsyncHTTPClient for the tests' requests
        // over loopback sockets. Vapor already builds both.
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
    ],
    targets: [
        .target(
            name: "Ledger",
            dependencies: [
                .product(name: "Objection", package: "Objection"),
                .product(name: "ObjectionVapor", package: "ObjectionVapor"),
                .product(name: "ObjectionConfiguration", package: "ObjectionConfiguration"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "ledger",
            dependencies: [
                "Ledger",
                .product(name: "Objection", package: "Objection"),
                .product(name: "ObjectionVapor", package: "ObjectionVapor"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "LedgerTests",
            dependencies: [
                "Ledger",
                .product(name: "Objection", package: "Objection"),
                .product(name: "ObjectionVapor", package: "ObjectionVapor"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "TestSupport", package: "ObjectionTestSupport"),
                .product(name: "LoggingTestSupport", package: "ObjectionTestSupport"),
                .product(name: "PostgresTestSupport", package: "ObjectionTestSupport"),
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
