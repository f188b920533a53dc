import Objection

// A small async service graph under a burst of concurrent requests: the database client is a
// singleton with a slow async connect, every request resolves a fresh handler.

let config = AppConfig(databaseURL: "postgres://localhost/app", connectLatency: .milliseconds(50))
let requestCount = 5_000
let clock = ContinuousClock()

print("Objection demo: \(requestCount) concurrent requests against a cold injector\n")

let injector = try await InjectorActor(modules: [AppModule(config: config)])

// 1. A cold burst: every request races to the database singleton while it is still connecting.
let burst = try await clock.measure {
    try await withThrowingTaskGroup(of: String.self) { group in
        for request in 0..<requestCount {
            group.addTask {
                let handler = try await injector.get(PlaceOrderHandler.self)
                return try await handler.handle(userID: request % 100, amount: 10)
            }
        }
        try await group.waitForAll()
    }
}
let metrics = try await injector.get(Metrics.self)
print("Served \(metrics.requestsServed) requests in \(burst) (includes the \(config.connectLatency) connect)")

print("\nConstructions per singleton (each must be 1):")
for (name, count) in ConstructionLog.shared.snapshot.sorted(by: { $0.key < $1.key }) {
    print("  \(name + String(repeating: " ", count: max(1, 18 - name.count)))\(count)")
}

// 2. Warm throughput: resolving the handler graph (handler + 2 repositories + metrics) once built.
// Measured off the main actor, where server request handlers run.
@concurrent func resolveRepeatedly(_ count: Int) async throws {
    for _ in 0..<count { _ = try await injector.get(PlaceOrderHandler.self) }
}
let resolutions = 1_000_000
let warm = try await clock.measure { try await resolveRepeatedly(resolutions) }
let seconds = Double(warm.components.seconds) + Double(warm.components.attoseconds) / 1e18
let perSecond = Int(Double(resolutions) / seconds)
print("\nWarm resolutions of PlaceOrderHandler: \(perSecond) per second (\(resolutions) in \(warm))")

// 3. A deliberately missing binding, reported with its dependency path.
print("\nResolving CheckoutService, whose graph needs an unbound PaymentGateway:")
do {
    _ = try await injector.get(CheckoutService.self)
} catch {
    print("  \(error)")
}
