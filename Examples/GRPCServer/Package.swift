// swift-tools-version: 6.2
import PackageDescription

// A notes service on grpc-swift 2 and PostgreSQL whose object graph comes from Objection: one root
// injector for the process, whose service runs the database client before the singletons that query
// it are built; one request scope per RPC, alive until its last response message, and a transaction
// scope nested in it; an ordered shutdown (server, then database client, then injector) driven by
// service-lifecycle. Messages are JSON, written by hand: no protobuf code generation.
let package = Package(
    name: "GRPCServer",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named so that targets can refer to it whatever the checkout's directory is called.
        .package(name: "Objection", path: "../.."),
        // The integration packages of this repository: the scope per RPC and the server as a
        // service; the injector as a service-lifecycle `Service`.
        .package(path: "../../Integrations/ObjectionGRPC"),
        .package(path: "../../Integrations/ObjectionServiceLifecycle"),
        // What the tests share with the other packages' tests: the gate, the log capture, and the
        // test database with its schemas and connection budget.
        .package(path: "../../Integrations/ObjectionTestSupport"),
        .package(url: "https://github.com/grpc/grpc-swift-2", exact: "2.4.3"),
        // HTTP/2 over SwiftNIO, for the server, the client and the load tool.
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", exact: "2.9.2"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
    ],
    targets: [
        // The wire: messages, method descriptors, the JSON codec and a typed client, what protoc
        // would generate. The client and the load tool need nothing else.
        .target(
            name: "NotesAPI",
            dependencies: [
                .product(name: "GRPCCore", package: "grpc-swift-2")
            ]
        ),
        .target(
            name: "Notes",
            dependencies: [
                "NotesAPI",
                .product(name: "Objection", package: "Objection"),
                .product(name: "ObjectionGRPC", package: "ObjectionGRPC"),
                .product(name: "ObjectionServiceLifecycle", package: "ObjectionServiceLifecycle"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "notes-server",
            dependencies: [
                "Notes",
                .product(name: "Objection", package: "Objection"),
                .product(name: "ObjectionServiceLifecycle", package: "ObjectionServiceLifecycle"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "ObjectionGRPC", package: "ObjectionGRPC"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "notes-client",
            dependencies: [
                "NotesAPI",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
            ]
        ),
        .executableTarget(
            name: "grpc-load",
            dependencies: [
                "NotesAPI",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
            ]
        ),
        .testTarget(
            name: "NotesTests",
            dependencies: [
                "Notes",
                "NotesAPI",
                .product(name: "Objection", package: "Objection"),
                .product(name: "ObjectionGRPC", package: "ObjectionGRPC"),
                .product(name: "ObjectionServiceLifecycle", package: "ObjectionServiceLifecycle"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
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
