import Hummingbird
import HummingbirdTesting
import Objection
import ObjectionHummingbird
import ObjectionTesting
import ServerFixtures
import TestSupport
import Testing

/// `/health/live` and `/health/ready` over a real socket: JSON, 200 or 503, from the injector's
/// phase and checks, with no request scope opened for them.
@Suite("Health routes", .timeLimit(.minutes(1)))
struct HealthRouteTests {
    private func application(_ injector: InjectorActor) -> some ApplicationProtocol {
        let router = Router(context: BasicInjectingRequestContext.self)
        router.add(middleware: ObjectionHealthMiddleware(injector, checkTimeout: .seconds(30), cachedFor: .zero))
        router.add(middleware: ObjectionScopeMiddleware(injector))
        router.get("work") { _, _ in "worked" }
        return Application(router: router)
    }

    @Test("ready follows the start, the shutdown and the checks; live runs no check; no probe opens a scope")
    func probes() async throws {
        let observer = RecordingObserver(observesScopes: true)
        let injector = try await InjectorActor(
            modules: [VaultHealthCheck.Module(fails: false)], startup: .deferred, observer: observer)
        try await application(injector).test(.live) { client in
            let starting = try await client.execute(uri: "/health/ready", method: .get)
            #expect(starting.status == .serviceUnavailable)
            #expect(starting.headers[.contentType] == "application/json; charset=utf-8")
            #expect(starting.text.contains(#""phase":"starting""#))
            #expect(starting.text.contains(#""ready":false"#))
            let alive = try await client.execute(uri: "/health/live", method: .get)
            #expect(alive.status == .ok)
            #expect(alive.text.contains(#""checks":[]"#))

            try await injector.start()
            let ready = try await client.execute(uri: "/health/ready", method: .get)
            #expect(ready.status == .ok)
            #expect(ready.text.contains(#""ready":true"#))
            #expect(ready.text.contains(#""name":"vault""#))
            #expect(try await client.execute(uri: "/work", method: .get).text == "worked")
            let scopesBeforeShutdown = observer.scopeCount

            // A request in flight when shutdown begins: not ready from that moment, still alive.
            let inside = Signal()
            let release = Signal()
            let request = Task {
                try await injector.withScope(values: { _ in }) { _ in
                    inside.fire()
                    try await release.wait()
                    return "finished"
                }
            }
            try await inside.wait()
            let shutdown = Task { await injector.shutdown(within: nil) }
            while injector.phase == .running { await Task.yield() }
            let draining = try await client.execute(uri: "/health/ready", method: .get)
            #expect(draining.status == .serviceUnavailable)
            #expect(draining.text.contains(#""phase":"shuttingDown""#))
            #expect(try await client.execute(uri: "/health/live", method: .get).status == .ok)
            release.fire()
            #expect(try await request.value == "finished")
            #expect(await shutdown.value == nil)
            #expect(try await client.execute(uri: "/health/live", method: .get).status == .serviceUnavailable)
            #expect(observer.scopeCount == scopesBeforeShutdown + 1, "only the request's own scope")
        }
    }

    @Test("a failing required check answers 503 naming the check and its error's type, never its description")
    func failingCheck() async throws {
        let injector = try await InjectorActor(modules: [VaultHealthCheck.Module(fails: true)])
        try await application(injector).test(.live) { client in
            let response = try await client.execute(uri: "/health/ready", method: .get)
            #expect(response.status == .serviceUnavailable)
            #expect(response.text.contains(#""status":"unhealthy""#))
            #expect(response.text.contains("threw Sealed"))
            #expect(!response.text.contains(VaultHealthCheck.secret))
        }
        await injector.shutdown()
    }
}

extension RecordingObserver {
    /// How many request scopes were opened.
    fileprivate var scopeCount: Int {
        events.filter { if case .scopeOpened = $0 { true } else { false } }.count
    }
}
