import Objection
import Synchronization

// A small async service graph under a burst of concurrent requests: the database client is a
// singleton with a slow async connect; every request opens a scope holding its own values and a
// unit of work, resolves a fresh handler, and disposes the scope when it is done.

let config = AppConfig(databaseURL: "postgres://localhost/app", connectLatency: .milliseconds(50))
let requestCount = 5_000
let clock = ContinuousClock()

print("Objection demo: \(requestCount) concurrent requests against a cold injector\n")

let injector = try await InjectorActor(modules: [AppModule(config: config)])

/// One simulated request: a scope with the request's id, a handler built inside it.
@concurrent func serve(request: Int) async throws -> String {
    try await injector.withScope(modules: [RequestModule(id: request)]) { scope in
        try await scope.get(PlaceOrderHandler.self).handle(amount: 10)
    }
}

// 1. A cold burst: every request races to the database singleton while it is still connecting.
let burst = try await clock.measure {
    try await withThrowingTaskGroup(of: String.self) { group in
        for request in 0..<requestCount {
            group.addTask { try await serve(request: request) }
        }
        try await group.waitForAll()
    }
}
let metrics = try await injector.get(Metrics.self)
print("Served \(metrics.requestsServed) requests in \(burst) (includes the \(config.connectLatency) connect)")
print("Request scopes ended, units of work committed: \(UnitOfWork.committed.load(ordering: .relaxed))")

print("\nConstructions per singleton (each must be 1):")
for (name, count) in ConstructionLog.shared.snapshot.sorted(by: { $0.key < $1.key }) {
    print("  \(name + String(repeating: " ", count: max(1, 18 - name.count)))\(count)")
}

// 2. Warm throughput, measured off the main actor, where server request handlers run.
func perSecond(_ count: Int, _ duration: Duration) -> Int {
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    return Int(Double(count) / seconds)
}
@concurrent func resolveRepeatedly(_ count: Int) async throws {
    try await injector.withScope(modules: [RequestModule(id: 0)]) { scope in
        for _ in 0..<count { _ = try await scope.get(PlaceOrderHandler.self) }
    }
}
@concurrent func serveRepeatedly(_ count: Int) async throws {
    for request in 0..<count { _ = try await serve(request: request) }
}
let resolutions = 1_000_000
let warm = try await clock.measure { try await resolveRepeatedly(resolutions) }
print("\nWarm resolutions of PlaceOrderHandler in one scope: \(perSecond(resolutions, warm)) per second")
let requests = 200_000
let perRequest = try await clock.measure { try await serveRepeatedly(requests) }
print("Whole requests (open scope, resolve, handle, dispose): \(perSecond(requests, perRequest)) per second")

// 3. A deliberately missing binding, reported with its dependency path when the injector is built.
print("\nAdding checkout, whose graph needs an unbound PaymentGateway:")
do {
    _ = try await injector.child(modules: [CheckoutModule()])
} catch {
    print("  \(error)")
}

// 4. The graph as a picture (paste into any Mermaid renderer; `.dot` for Graphviz). A configuration
// the injector rejects can be drawn too, to see why.
print("\nThe binding graph with checkout, in Mermaid (missing bindings dashed in red):")
print(try InjectorActor.graph(of: [AppModule(config: config), CheckoutModule()], .mermaid))

// 5. Ordered shutdown: singletons disposed in reverse order of construction.
print("\nShutting down:")
if let failure = await injector.shutdown() { print("  \(failure)") }
for (step, entry) in ShutdownLog.shared.snapshot.enumerated() { print("  \(step + 1). \(entry)") }
