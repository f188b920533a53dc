import AsyncHTTPClient
import Objection
import ObjectionTesting
import ObjectionVapor
import ServerFixtures
import TestSupport
import Testing
import Vapor

/// `/health/live` and `/health/ready` over a real socket: JSON, 200 or 503, from the injector's
/// phase and checks, with no request scope opened for them.
@Suite("Health routes", .timeLimit(.minutes(1)))
struct HealthRouteTests {
    @Test("ready follows the boot, the shutdown and the checks; live runs no check; no probe opens a scope")
    func probes() async throws {
        let observer = RecordingObserver(observesScopes: true)
        let injector = try await InjectorActor(
            modules: [VaultHealthCheck.Module(fails: false)], startup: .deferred, observer: observer)
        let app = try await Application.make(.testing)
        app.useInjector(injector)
        app.middleware.use(ObjectionScopeMiddleware(injector))
        app.middleware.use(ObjectionHealthMiddleware(injector, cachedFor: .zero), at: .beginning)
        #expect(injector.phase == .starting)
        let port = try await app.startLive()
        try await withHTTPClient { client in
            let (status, body) = try await client.get(port: port, "/health/ready")
            #expect(status == .ok)
            #expect(body.contains(#""ready":true"#))
            #expect(body.contains(#""name":"vault""#))
            #expect(try await client.get(port: port, "/health/live").0 == .ok)

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
            let (draining, drainingBody) = try await client.get(port: port, "/health/ready")
            #expect(draining == .serviceUnavailable)
            #expect(drainingBody.contains(#""phase":"shuttingDown""#))
            #expect(try await client.get(port: port, "/health/live").0 == .ok)
            release.fire()
            #expect(try await request.value == "finished")
            #expect(await shutdown.value == nil)
            #expect(try await client.get(port: port, "/health/live").0 == .serviceUnavailable)
        }
        try await app.asyncShutdown()
        let opened = observer.events.filter { if case .scopeOpened = $0 { true } else { false } }.count
        #expect(opened == 1, "only the request's own scope")
    }

    @Test("a failing required check answers 503 naming the check and its error's type, never its description")
    func failingCheck() async throws {
        let injector = try await InjectorActor(modules: [VaultHealthCheck.Module(fails: true)])
        let app = try await Application.make(.testing)
        app.useInjector(injector)
        app.middleware.use(ObjectionHealthMiddleware(injector), at: .beginning)
        let port = try await app.startLive()
        try await withHTTPClient { client in
            let (status, body) = try await client.get(port: port, "/health/ready")
            #expect(status == .serviceUnavailable)
            #expect(body.contains(#""status":"unhealthy""#))
            #expect(body.contains("threw Sealed"))
            #expect(!body.contains(VaultHealthCheck.secret))
        }
        try await app.asyncShutdown()
    }
}
