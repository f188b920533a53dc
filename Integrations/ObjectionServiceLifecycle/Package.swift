// swift-tools-version: 6.2
import PackageDescription

// Objection for swift-service-lifecycle: the injector as a `Service` that runs the services its
// singletons are, starts the injector once they run, and disposes its singletons after them; and
// an observer that logs constructions and disposals with swift-log. A package of its own, so that
// the library's resolution stays empty.
let package = Package(
    name: "ObjectionServiceLifecycle",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ObjectionServiceLifecycle", targets: ["ObjectionServiceLifecycle"])
    ],
    dependencies: [
        // Named so that targets can refer to it whatever the checkout's directory is called.
        .package(name: "Objection", path: "../.."),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The tests' signals, event log and log capture, shared with the other packages' tests.
        .package(path: "../ObjectionTestSupport"),
    ],
    targets: [
        .target(
            name: "ObjectionServiceLifecycle",
            dependencies: [
                .product(name: "Objection", package: "Objection"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ObjectionServiceLifecycleTests",
            dependencies: [
                "ObjectionServiceLifecycle",
                .product(name: "Objection", package: "Objection"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "TestSupport", package: "ObjectionTestSupport"),
                .product(name: "LoggingTestSupport", package: "ObjectionTestSupport"),
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
