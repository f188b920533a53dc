import AsyncHTTPClient
import LoggingTestSupport
import Objection
import ObjectionVapor
import ServerFixtures
import TestSupport
import Testing
import Vapor

/// The middleware and the lifecycle over real sockets: a server on an ephemeral loopback port,
/// AsyncHTTPClient as the client.
@Suite("Live server", .timeLimit(.minutes(2)))
struct LiveServerTests {
    @Test("200 concurrent requests get exactly one scope each, opened and ended once")
    func concurrentRequests() async throws {
        let ledger = ScopeLedger()
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ledger)])
        let count = 200
        let bodies = try await withTestApp { app in
            app.useInjector(injector)
            app.grouped(ObjectionScopeMiddleware(injector)).get("work") { req async throws -> String in
                async let first = req.resolve(RequestWork.self)
                async let second = req.resolve(RequestWork.self)
                let (a, b) = try await (first, second)
                return a === b ? "\(a.serial) \(a.label)" : "two instances"
            }
            let port = try await app.startLive()
            return try await withHTTPClient(connections: 32) { client in
                try await withThrowingTaskGroup(of: (Int, HTTPResponseStatus, String).self) { group in
                    for index in 0..<count {
                        group.addTask {
                            let (status, body) = try await client.get(
                                port: port, "/work", headers: ["X-Request-Id": "live-\(index)"])
                            return (index, status, body)
                        }
                    }
                    var bodies: [Int: String] = [:]
                    for try await (index, status, body) in group {
                        #expect(status == .ok)
                        bodies[index] = body
                    }
                    return bodies
                }
            }
        }
        #expect(ledger.built == count)
        let disposed = ledger.disposed
        #expect(disposed.count == count)
        #expect(Set(disposed.map(\.serial)) == Set(1...count))
        #expect(Set(disposed.map(\.label)) == Set((0..<count).map { "live-\($0)" }))
        #expect(disposed.allSatisfy { $0.error == nil })
        let serials = (0..<count).compactMap { bodies[$0]?.split(separator: " ").first.flatMap { Int($0) } }
        #expect(Set(serials).count == count)
        for index in 0..<count {
            #expect(bodies[index]?.hasSuffix(" live-\(index)") == true)
        }
    }

    @Test("A handler that throws has its scope disposed, told of the error, by the time the 500 arrives")
    func throwingHandler() async throws {
        struct Failed: Error {}
        let ledger = ScopeLedger()
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ledger)])
        try await withTestApp { app in
            app.useInjector(injector)
            app.grouped(ObjectionScopeMiddleware(injector)).get("fail") { req async throws -> String in
                _ = try await req.resolve(RequestWork.self)
                throw Failed()
            }
            let port = try await app.startLive()
            try await withHTTPClient { client in
                let (status, body) = try await client.get(port: port, "/fail", headers: ["X-Request-Id": "fail-1"])
                #expect(status == .internalServerError)
                #expect(!body.contains("Failed"))
                #expect(ledger.disposed.map(\.label) == ["fail-1"])
                #expect(ledger.disposed.first?.error is Failed)
            }
        }
    }

    @Test("Shutdown lets the request in flight finish, its scope end, then disposes the singletons")
    func gracefulShutdown() async throws {
        let logs = LogCapture()
        let events = EventLog()
        let ledger = ScopeLedger()
        let injector = try await InjectorActor(modules: [
            SingletonModule(events: events), RequestModule(ledger: ledger),
        ])
        let entered = Signal()
        let gate = Signal()
        let app = try await Application.make(.testing, logger: logs.logger())
        app.useInjector(injector)
        app.grouped(ObjectionScopeMiddleware(injector)).get("slow") { req async throws -> String in
            let work = try await req.resolve(RequestWork.self)
            _ = try await req.resolve(Recorded<Cache>.self)
            entered.fire()
            try await gate.wait()
            events.record("handler returned \(work.serial)")
            return "done"
        }
        let port = try await app.startLive()
        let stopping = logs.signal(whenLogged: "Requesting HTTP server shutdown")
        try await withHTTPClient { client in
            async let response = client.get(port: port, "/slow")
            try await entered.wait()
            let shutdown = Task { try await app.asyncShutdown() }
            try await stopping.wait()
            #expect(events.all == ["built Pool", "built Cache"])
            gate.fire()
            let (status, body) = try await response
            #expect(status == .ok)
            #expect(body == "done")
            try await shutdown.value
        }
        #expect(ledger.disposed.map(\.serial) == [1])
        #expect(events.all == ["built Pool", "built Cache", "handler returned 1", "disposed Cache", "disposed Pool"])
    }
}
