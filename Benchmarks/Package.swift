// swift-tools-version: 6.1
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
        // One hot path, run N times, for the instruction counts of `.ci/instruction-counts`.
        .executableTarget(name: "objection-instructions", dependencies: ["BenchmarkSupport"]),
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
