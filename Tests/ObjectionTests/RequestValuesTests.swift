import Testing

@testable import Objection

@Suite("Request values", .hangLimit)
struct RequestValuesTests {
    /// Transient in the root: a new one per `get`, built from the request's id and its ``Audit``
    /// (scoped in the root: one per request).
    final class Stamp: Sendable {
        let requestID: RequestID
        let audit: Audit
        init(requestID: RequestID, audit: Audit) {
            self.requestID = requestID
            self.audit = audit
        }
    }

    /// A key the root does not bind: only request values answer it.
    struct Tenant: Sendable, Equatable {
        let name: String
    }

    /// A scoped ``Ledger`` the scope builds, and so disposes, from a resource the scope supplies.
    @Sendable static func ledger(resource: CountedResource) -> Ledger { Ledger() }

    static func root() async throws -> InjectorActor {
        try await makeInjector { binder in
            binder.bind(RequestID.self).suppliedByScope()
            binder.bind(Audit.self).to(Audit.init).inScope(.scoped)
            binder.bind(Stamp.self).to(Stamp.init)
        }
    }

    @Test("a value for a key supplied by scopes answers get and reaches scoped and transient bindings")
    func valueReachesBindings() async throws {
        let root = try await Self.root()
        let id = RequestID(value: 7)
        let (requestID, audit, stamp, again) = try await root.withScope(values: { $0.bind(RequestID.self, to: id) }) {
            scope in
            try await (
                scope.get(RequestID.self), scope.get(Audit.self), scope.get(Stamp.self), scope.get(Stamp.self)
            )
        }
        #expect(requestID == id)
        #expect(audit.requestID == id)
        #expect(stamp.requestID == id && stamp.audit === audit)
        #expect(again !== stamp && again.audit === audit)
    }

    @Test("concurrent scopes each see only their own values")
    func concurrentScopesAreIsolated() async throws {
        let root = try await Self.root()
        let seen = try await withThrowingTaskGroup(of: (Int, [RequestID]).self) { group in
            for id in 0..<200 {
                group.addTask {
                    try await root.withScope(values: { $0.bind(RequestID.self, to: RequestID(value: id)) }) { scope in
                        await Task.yield()
                        let stamp = try await scope.get(Stamp.self)
                        await Task.yield()
                        let audit = try await scope.get(Audit.self)
                        let requestID = try await scope.get(RequestID.self)
                        return (id, [stamp.requestID, stamp.audit.requestID, audit.requestID, requestID])
                    }
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(seen.count == 200)
        for (id, values) in seen {
            #expect(values == Array(repeating: RequestID(value: id), count: 4), "request \(id)")
        }
    }

    @Test("a value for an unbound key answers get, getIfBound and the current scope, only inside the scope")
    func valueForUnboundKey() async throws {
        let root = try await Self.root()
        let tenant = Tenant(name: "acme")
        let seen = try await root.withScope(values: { $0.bind(Tenant.self, to: tenant) }) { scope in
            try await [
                scope.get(Tenant.self),
                scope.getIfBound(Tenant.self),
                InjectorActor.currentScope?.get(Tenant.self),
            ]
        }
        #expect(seen == [tenant, tenant, tenant])
        let error = await injectionError { _ = try await root.get(Tenant.self) }
        #expect(error?.code == .missingBinding)
        #expect(try await root.getIfBound(Tenant.self) == nil)
    }

    @Test("a named value answers its named key only")
    func namedValue() async throws {
        let root = try await Self.root()
        let tenant = Tenant(name: "acme")
        let (named, unnamed) = try await root.withScope(values: { $0.bind(Tenant.self, named: "caller", to: tenant) }) {
            scope in
            try await (scope.get(Tenant.self, named: "caller"), scope.getIfBound(Tenant.self))
        }
        #expect(named == tenant)
        #expect(unnamed == nil)
    }

    @Test(
        "a value for a key the root binds is refused, naming the key, before the body runs",
        arguments: [false, true]
    )
    func valueForBoundKeyIsRefused(boundToInstance: Bool) async throws {
        let root = try await makeInjector { binder in
            binder.bind(RequestID.self).suppliedByScope()
            if boundToInstance {
                binder.bind(Tenant.self).toInstance(Tenant(name: "root"))
            } else {
                binder.bind(Tenant.self).to { _ in Tenant(name: "root") }
            }
            binder.bind(Engine.self).to(Engine.init)
        }
        let ran = Counter()
        let error = await injectionError {
            try await root.withScope(values: { values in
                values.bind(RequestID.self, to: RequestID(value: 1))
                values.bind(Tenant.self, to: Tenant(name: "request"))
            }) { _ in _ = ran.increment() }
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.description.contains("'Tenant'") == true)
        #expect(error?.description.contains("RequestID") == false)
        #expect(ran.value == 0)

        let autowired = await injectionError {
            try await root.withScope(values: { $0.bind(Engine.self, to: Engine()) }) { _ in _ = ran.increment() }
        }
        #expect(autowired?.code == .invalidConfiguration)
        #expect(autowired?.description.contains("'Engine'") == true)
        #expect(ran.value == 0)
        #expect(try await root.get(Tenant.self) == Tenant(name: "root"))
    }

    @Test("acceptsScopeValue: a request scope may bind a key unbound or supplied by scopes, in a child too")
    func acceptsScopeValue() async throws {
        let root = try await makeInjector { binder in
            binder.bind(RequestID.self).suppliedByScope()
            binder.bind(Tenant.self).toInstance(Tenant(name: "root"))
        }
        let child = try await root.child(modules: [])
        for injector in [root, child] {
            #expect(injector.acceptsScopeValue(for: RequestID.self))
            #expect(!injector.acceptsScopeValue(for: Tenant.self))
            #expect(injector.acceptsScopeValue(for: Tenant.self, named: "other"))
            #expect(injector.acceptsScopeValue(for: Ledger.self))
        }
        // What it answers is what withScope(values:) does.
        let scoped = try await child.withScope(values: { $0.bind(RequestID.self, to: RequestID(value: 2)) }) {
            try await $0.get(RequestID.self)
        }
        #expect(scoped == RequestID(value: 2))
    }

    @Test("binding a key twice keeps the later value")
    func laterValueWins() async throws {
        let root = try await Self.root()
        let (requestID, audit) = try await root.withScope(values: { values in
            values.bind(RequestID.self, to: RequestID(value: 1))
            values.bind(RequestID.self, to: RequestID(value: 2))
        }) { scope in
            try await (scope.get(RequestID.self), scope.get(Audit.self))
        }
        #expect(requestID == RequestID(value: 2))
        #expect(audit.requestID == RequestID(value: 2))

        var values = ScopeValues()
        values.bind(RequestID.self, to: RequestID(value: 1))
        values.bind(Tenant.self, to: Tenant(name: "a"))
        values.bind(RequestID.self, to: RequestID(value: 3))
        // One entry per key, the later value in it.
        #expect(values.keys { _ in true } == [BindingKey(RequestID.self), BindingKey(Tenant.self)])
        let index = try #require(values.index(of: BindingKey(RequestID.self)))
        #expect(try values.value(at: index, as: RequestID.self) == RequestID(value: 3))
    }

    @Test("past the values searched in order, each key still answers its latest value, in the order first bound")
    func manyValues() async throws {
        let count = 40
        let root = try await Self.root()
        let read = try await root.withScope(values: { values in
            for i in 0..<count { values.bind(Int.self, named: "v\(i)", to: i) }
            // Rebound once indexed: the later value, in the same place.
            values.bind(Int.self, named: "v3", to: 300)
            values.bind(Int.self, named: "v30", to: 3000)
        }) { scope in
            var read: [Int] = []
            for i in 0..<count { read.append(try await scope.get(Int.self, named: "v\(i)")) }
            return read
        }
        #expect(read == (0..<count).map { $0 == 3 ? 300 : $0 == 30 ? 3000 : $0 })
        var values = ScopeValues()
        for i in 0..<count { values.bind(Int.self, named: "v\(i)", to: i) }
        #expect(values.keys { _ in true } == (0..<count).map { BindingKey(Int.self, named: "v\($0)") })
        #expect(values.index(of: BindingKey(Int.self, named: "missing")) == nil)
    }

    @Test("the scope disposes what it built, never the values, which belong to the caller")
    func valuesAreNotDisposed() async throws {
        let root = try await makeInjector { binder in
            binder.bind(CountedResource.self).suppliedByScope()
            binder.bind(Ledger.self).to(Self.ledger).inScope(.scoped)
        }
        let supplied = CountedResource()
        let unbound = Resource("unbound", log: Log())
        let ledger = try await root.withScope(values: { values in
            values.bind(CountedResource.self, to: supplied)
            values.bind(Resource.self, to: unbound)
        }) { scope in
            #expect(try await scope.get(Resource.self) === unbound)
            let ledger = try await scope.get(Ledger.self)
            #expect(ledger.disposals.value == 0)
            return ledger
        }
        #expect(ledger.disposals.value == 1)
        #expect(supplied.disposals.value == 0)
        #expect(unbound.log.values.isEmpty)
    }

    @Test("a key supplied by scopes without a value is missing in the scope, with the dependent in the path")
    func suppliedKeyWithoutValue() async throws {
        let root = try await Self.root()
        try await root.withScope(values: { _ in }) { scope in
            let requestID = try await scope.getIfBound(RequestID.self)
            #expect(requestID == nil)
            let direct = await injectionError { _ = try await scope.get(RequestID.self) }
            #expect(direct?.code == .missingBinding)

            let scoped = await injectionError { _ = try await scope.get(Audit.self) }
            #expect(scoped?.code == .missingBinding)
            #expect(scoped?.path.contains(BindingKey(Audit.self)) == true)
            #expect(scoped?.path.last == BindingKey(RequestID.self))

            let transient = await injectionError { _ = try await scope.get(Stamp.self) }
            #expect(transient?.code == .missingBinding)
            #expect(transient?.path.first == BindingKey(Stamp.self))
            #expect(transient?.path.last == BindingKey(RequestID.self))
        }
    }

    @Test("a nested scope answers with its own values and builds its own scoped instances")
    func nestedScopeOwnValues() async throws {
        let root = try await Self.root()
        try await root.withScope(values: { $0.bind(RequestID.self, to: RequestID(value: 1)) }) { outer in
            let outerAudit = try await outer.get(Audit.self)
            let innerAudit = try await outer.withScope(values: { $0.bind(RequestID.self, to: RequestID(value: 2)) }) {
                inner in
                #expect(try await inner.get(RequestID.self) == RequestID(value: 2))
                return try await inner.get(Audit.self)
            }
            #expect(innerAudit !== outerAudit)
            #expect(innerAudit.requestID == RequestID(value: 2))
            #expect(try await outer.get(Audit.self) === outerAudit)
            #expect(try await outer.get(RequestID.self) == RequestID(value: 1))
        }
    }
}
