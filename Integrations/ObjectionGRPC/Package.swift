// swift-tools-version: 6.2
import PackageDescription

// Objection for grpc-swift 2: one request scope per RPC, alive until the RPC's last response
// message has been written, injection errors as opaque `internalError`s, and the server run in the
// injector's lifecycle. A package of its own, so that the library's resolution stays empty.
let package = Package(
    name: "ObjectionGRPC",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ObjectionGRPC", targets: ["ObjectionGRPC"])
    ],
    dependencies: [
        // Named so that targets can refer to it whatever the checkout's directory is called.
        .package(name: "Objection", path: "../.."),
        // Lower bounds, not exact versions: an application resolves its own.
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The tests serve over a real HTTP/2 socket, with grpc-swift's own client.
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", from: "2.9.2"),
        .package(path: "../ObjectionTestSupport"),
        .package(path: "../ObjectionServiceLifecycle"),
    ],
    targets: [
        .target(
            name: "ObjectionGRPC",
            dependencies: [
                .product(name: "Objection", package: "Objection"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "ObjectionGRPCTests",
            dependencies: [
                "ObjectionGRPC",
                .product(name: "Objection", package: "Objection"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "TestSupport", package: "ObjectionTestSupport"),
                .product(name: "LoggingTestSupport", package: "ObjectionTestSupport"),
                .product(name: "ServerFixtures", package: "ObjectionTestSupport"),
                .product(name: "ObjectionServiceLifecycle", package: "ObjectionServiceLifecycle"),
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
