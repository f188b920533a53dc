// swift-tools-version: 6.2
import PackageDescription

// What the tests of the integration packages and the example servers share, once: one-shot signals,
// a gate that holds tasks, an event log, a teardown helper, a raw HTTP exchange over a socket, a
// capturing log handler, a PostgreSQL test database with schemas of its own and a connection
// budget, and the server integrations' fixtures. One target per dependency, so that a package
// builds only what its tests import: `TestSupport` needs nothing but the standard library,
// `LoggingTestSupport` swift-log, `PostgresTestSupport` postgres-nio (and `TestSupport`),
// `ServerFixtures` Objection.
let package = Package(
    name: "ObjectionTestSupport",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TestSupport", targets: ["TestSupport"]),
        .library(name: "LoggingTestSupport", targets: ["LoggingTestSupport"]),
        .library(name: "PostgresTestSupport", targets: ["PostgresTestSupport"]),
        .library(name: "ServerFixtures", targets: ["ServerFixtures"]),
    ],
    dependencies: [
        .package(name: "Objection", path: "../.."),
        // Lower bounds, not exact versions: the packages whose tests use these resolve their own.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        .target(name: "TestSupport"),
        .target(
            name: "LoggingTestSupport",
            dependencies: [
                "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "PostgresTestSupport",
            dependencies: [
                "TestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(name: "ServerFixtures", dependencies: [.product(name: "Objection", package: "Objection")]),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),
        .testTarget(
            name: "LoggingTestSupportTests",
            dependencies: [
                "LoggingTestSupport",
                "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "PostgresTestSupportTests", dependencies: ["PostgresTestSupport"]),
        .testTarget(
            name: "ServerFixturesTests",
            dependencies: ["ServerFixtures", .product(name: "Objection", package: "Objection")]
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
