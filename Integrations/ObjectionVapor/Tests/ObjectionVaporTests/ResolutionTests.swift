import Logging
import Objection
import ObjectionVapor
import ServerFixtures
import Synchronization
import Testing
import Vapor
import VaporTesting

/// Resolution from the request: one scope per request, the request's own values in it.
@Suite("Resolution")
struct ResolutionTests {
    @Test("A scoped instance is one per request, shared within it, and disposed when the response is produced")
    func onePerRequest() async throws {
        let ledger = ScopeLedger()
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ledger)])
        try await withTestApp { app in
            app.grouped(ObjectionScopeMiddleware(injector)).get("work") { req async throws -> String in
                async let first = req.resolve(RequestWork.self)
                async let second = req.resolve(RequestWork.self)
                let (a, b) = try await (first, second)
                #expect(a === b)
                #expect(!ledger.disposed.contains { $0.serial == a.serial })
                return "\(a.serial)"
            }
            let first = try await app.testing().sendRequest(.GET, "work")
            #expect(first.body.string == "1")
            #expect(ledger.disposed.map(\.serial) == [1])
            let second = try await app.testing().sendRequest(.GET, "work")
            #expect(second.body.string == "2")
            #expect(ledger.disposed.map(\.serial) == [1, 2])
        }
    }

    @Test("A handler that opens the scope itself gets one scope per request, in its own task, disposed when it returns")
    func scopedHandler() async throws {
        let ledger = ScopeLedger()
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ledger)])
        try await withTestApp { app in
            app.get(
                "work",
                use: ObjectionScopeMiddleware(injector).scoped { req async throws -> String in
                    let work = try await req.resolve(RequestWork.self)
                    #expect(try await req.resolve(RequestWork.self) === work)
                    #expect(try await req.resolve(RequestIdentifier.self).value == work.label)
                    return "\(work.serial)"
                })
            let first = try await app.testing().sendRequest(.GET, "work", headers: ["X-Request-Id": "w-1"])
            #expect(first.body.string == "1")
            let second = try await app.testing().sendRequest(.GET, "work", headers: ["X-Request-Id": "w-2"])
            #expect(second.body.string == "2")
            #expect(ledger.disposed.map(\.serial) == [1, 2])
            #expect(ledger.disposed.map(\.label) == ["w-1", "w-2"])
        }
    }

    @Test("The request's id and logger, and the user an authenticator logged in, are the scope's values")
    func requestValues() async throws {
        let ledger = ScopeLedger()
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ledger)])
        try await withTestApp { app in
            let scoped = app.grouped(HeaderAuthenticator()).grouped(
                ObjectionScopeMiddleware(injector) { req, values in
                    values.bind(Logger.self, to: req.logger)
                    if let user = req.auth.get(User.self) { values.bind(User.self, to: user) }
                })
            scoped.get("whoami") { req async throws -> String in
                let id = try await req.resolve(RequestIdentifier.self)
                let logger = try await req.resolve(Logger.self)
                let user: User? = try await req.requestScope?.getIfBound(User.self)
                let work = try await req.resolve(RequestWork.self)
                let logged = logger[metadataKey: "request-id"]?.description ?? "-"
                return "\(id) \(logged) \(user?.name ?? "anonymous") \(work.label)"
            }
            let named = try await app.testing().sendRequest(
                .GET, "whoami", headers: ["X-Request-Id": "req-7", "Authorization": "ada"])
            #expect(named.body.string == "req-7 req-7 ada req-7")
            let anonymous = try await app.testing().sendRequest(.GET, "whoami", headers: ["X-Request-Id": "req-8"])
            #expect(anonymous.body.string == "req-8 req-8 anonymous req-8")
        }
    }

    @Test("A client's id that is not well-formed is replaced, in the scope and in the request's logger alike")
    func malformedRequestID() async throws {
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ScopeLedger())])
        try await withTestApp { app in
            app.middleware.use(ObjectionScopeMiddleware(injector))
            app.get("id") { req async throws -> String in
                let id = try await req.resolve(RequestIdentifier.self)
                let logged = try await req.resolve(Logger.self)[metadataKey: "request-id"]?.description ?? "-"
                return "\(id) \(logged)"
            }
            for sent in ["forged\" level=error", String(repeating: "a", count: 100_000), "bad id", "é"] {
                let response = try await app.testing().sendRequest(.GET, "id", headers: ["X-Request-Id": sent])
                let parts = response.body.string.split(separator: " ").map(String.init)
                #expect(parts.count == 2 && parts[0] == parts[1], "\(parts)")
                #expect(parts.first != sent)
                #expect(parts.first.map(RequestIdentifier.isWellFormed) == true)
            }
        }
    }

    @Test("By default the middleware binds the request's logger")
    func defaultValues() async throws {
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ScopeLedger())])
        try await withTestApp { app in
            app.middleware.use(ObjectionScopeMiddleware(injector))
            app.get("logger") { req async throws -> String in
                let logger = try await req.resolve(Logger.self)
                return logger[metadataKey: "request-id"]?.description ?? "-"
            }
            let response = try await app.testing().sendRequest(.GET, "logger", headers: ["X-Request-Id": "req-9"])
            #expect(response.body.string == "req-9")
        }
    }

    @Test("The scope has ended once the response is produced, and is gone from the request")
    func scopeEnds() async throws {
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ScopeLedger())])
        let kept = Mutex<(request: Request?, scope: InjectorActor?)>((nil, nil))
        try await withTestApp { app in
            app.grouped(ObjectionScopeMiddleware(injector)).get("keep") { req async throws -> String in
                kept.withLock { $0 = (req, req.requestScope) }
                return "kept"
            }
            _ = try await app.testing().sendRequest(.GET, "keep")
        }
        let (request, scope) = kept.withLock { $0 }
        #expect(request?.requestScope == nil)
        let ended = try #require(scope)
        await #expect(throws: InjectionError(code: .shutDown, message: "")) {
            _ = try await ended.get(RequestWork.self)
        }
    }

    @Test("Resolving where no scope middleware runs throws a scope violation that says what to add")
    func noMiddleware() async throws {
        try await withTestApp { app in
            let request = Request(application: app, on: app.eventLoopGroup.next())
            let error = try await #require(throws: InjectionError.self) {
                _ = try await request.resolve(RequestWork.self)
            }
            #expect(error.code == .scopeViolation)
            #expect(error.message.contains("ObjectionScopeMiddleware"))
        }
    }
}
