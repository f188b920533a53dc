// swift-tools-version: 6.2
import PackageDescription

// The benchmarks live in their own package so that the library's own dependency list stays empty.
let package = Package(
    name: "ObjectionBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named so that targets can refer to it whatever the checkout's directory is called.
        .package(name: "Objection", path: ".."),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        // The server integrations and their frameworks, for the in-process requests of
        // objection-server-instructions.
        .package(path: "../Integrations/ObjectionHummingbird"),
        .package(path: "../Integrations/ObjectionVapor"),
        .package(path: "../Integrations/ObjectionOpenAPI"),
        .package(path: "../Integrations/ObjectionGRPC"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.3"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                .product(name: "Objection", package: "Objection"),
                .product(name: "Swinject", package: "Swinject"),
            ]
        ),
        .executableTarget(name: "objection-compare", dependencies: ["BenchmarkSupport"]),
        // The `main` of the programs `.ci/instruction-counts` runs under callgrind.
        .target(name: "CountedRun"),
        // One hot path, run N times, for the instruction counts of `.ci/instruction-counts`.
        .executableTarget(name: "objection-instructions", dependencies: ["BenchmarkSupport", "CountedRun"]),
        // N requests through one server integration's middleware and router, in process: a route
        // whose objects come from a request scope, or its hand-wired twin.
        .executableTarget(
            name: "objection-server-instructions",
            dependencies: [
                "CountedRun",
                .product(name: "Objection", package: "Objection"),
                .product(name: "ObjectionHummingbird", package: "ObjectionHummingbird"),
                .product(name: "ObjectionVapor", package: "ObjectionVapor"),
                .product(name: "ObjectionOpenAPI", package: "ObjectionOpenAPI"),
                .product(name: "ObjectionGRPC", package: "ObjectionGRPC"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCInProcessTransport", package: "grpc-swift-2"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "ObjectionBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/ObjectionBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    target.swiftSettings = settings
}
