// swift-tools-version: 6.2
import PackageDescription

// Objection's observer, sent on: a span per construction of a cached instance with
// swift-distributed-tracing, and construction times, failures and live request scopes with
// swift-metrics. A package of its own, so that the library's resolution stays empty; two products,
// so that an application that wants one backend does not build the other.
let package = Package(
    name: "ObjectionObservability",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ObjectionTracing", targets: ["ObjectionTracing"]),
        .library(name: "ObjectionMetrics", targets: ["ObjectionMetrics"]),
    ],
    dependencies: [
        // Named so that targets can refer to it whatever the checkout's directory is called.
        .package(name: "Objection", path: "../.."),
        // Lower bounds, not exact versions: an application resolves its own.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "ObjectionTracing",
            dependencies: [
                .product(name: "Objection", package: "Objection"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .target(
            name: "ObjectionMetrics",
            dependencies: [
                .product(name: "Objection", package: "Objection"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "ObjectionTracingTests",
            dependencies: [
                "ObjectionTracing",
                .product(name: "Objection", package: "Objection"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(
            name: "ObjectionMetricsTests",
            dependencies: [
                "ObjectionMetrics",
                .product(name: "Objection", package: "Objection"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
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
