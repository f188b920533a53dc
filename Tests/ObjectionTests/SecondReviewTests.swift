import Testing

@testable import Objection

/// Cases from the second review: each once crashed or misbehaved.
@Suite("Scopes, lifecycles and parity features under stress of misuse", .timeLimit(.minutes(1)))
struct ScopeLifecycleEdgeTests {
    final class Probe: AsyncDisposable {
        let name: String
        let log: Log
        init(_ name: String, log: Log) {
            self.name = name
            self.log = log
        }
        func dispose() async throws { log.append(name) }
    }

    final class OtherProbe: Sendable {}

    @Test("scoped cells of short-lived children never mix up bindings")
    func scopedCellsOfShortLivedChildren() async throws {
        let root = try await makeInjector { _ in }
        try await root.withScope { scope in
            for round in 0..<200 {
                if round.isMultiple(of: 2) {
                    let child = try await scope.child(modules: [
                        TestModule { $0.bind(Engine.self).to(Engine.init).inScope(.scoped) }
                    ])
                    _ = try await child.get(Engine.self)
                } else {
                    let child = try await scope.child(modules: [
                        TestModule { $0.bind(Wheel.self).to(Wheel.init).inScope(.scoped) }
                    ])
                    _ = try await child.get(Wheel.self)
                }
            }
        }
    }

    @Test("a singleton of a child of a scope cannot capture the scope's instances")
    func captiveInChildOfScope() async throws {
        final class Holder: Sendable {
            let wheel: Wheel
            init(wheel: Wheel) { self.wheel = wheel }
        }
        let root = try await makeInjector { $0.bind(Wheel.self).to(Wheel.init).inScope(.scoped) }
        try await root.withScope { scope in
            let opaque = try await scope.child(modules: [
                TestModule { $0.bind(Holder.self).to { r in try await Holder(wheel: r.get(Wheel.self)) }.asSingleton() }
            ])
            let error = await injectionError { _ = try await opaque.get(Holder.self) }
            #expect(error?.code == .scopeViolation)
            let declared = await injectionError {
                _ = try await scope.child(modules: [TestModule { $0.bind(Holder.self).to(Holder.init).asSingleton() }])
            }
            #expect(declared?.code == .scopeViolation)
        }
    }

    @Test("runtime arguments work with decorators; an argument closure's result is returned as built")
    func argumentsWithPropertiesAndDecorators() async throws {
        final class Tagged: PropertyInjectable, @unchecked Sendable {
            let tag: String
            var engine: Engine?
            init(tag: String) { self.tag = tag }
            static var injectedProperties: [InjectedProperty] { [.property(\Tagged.engine)] }
        }
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init)
            binder.bind(Tagged.self).to(arguments: String.self) { _, tag in Tagged(tag: tag) }.defaults("default")
            binder.bind(Headlight.self).to(arguments: Int.self) { _, _ in Headlight(side: .left) }
            binder.decorate(Headlight.self) { _, _ in Headlight(side: .right) }
        }
        let tagged = try await injector.get(Tagged.self, arguments: "given")
        #expect(tagged.tag == "given" && tagged.engine == nil)
        let defaulted = try await injector.get(Tagged.self)
        #expect(defaulted.tag == "default" && defaulted.engine == nil)
        #expect(try await injector.get(Headlight.self, arguments: 1).side == .right)
    }

    @Test("when an eager singleton fails, the ones already built are disposed")
    func eagerFailureDisposes() async throws {
        let log = Log()
        let release = Gate()
        await #expect(throws: ProviderFailure(attempt: 1)) {
            _ = try await makeInjector { binder in
                binder.bind(Probe.self).to { _ in
                    defer { release.open() }
                    return Probe("built", log: log)
                }.asEagerSingleton()
                binder.bind(OtherProbe.self).to { _ in
                    await release.wait()
                    throw ProviderFailure(attempt: 1)
                }.asEagerSingleton()
            }
        }
        #expect(log.values == ["built"])
    }

    @Test("the end of a scope waits for a scoped construction still running and disposes it")
    func scopeWaitsForConstructions() async throws {
        let log = Log()
        let started = Gate()
        let release = Gate()
        let root = try await makeInjector { binder in
            binder.bind(Probe.self).to { _ in
                started.open()
                await release.wait()
                return Probe("late", log: log)
            }.inScope(.scoped)
        }
        let ended = Task {
            try await root.withScope { scope in
                Task { _ = try? await scope.get(Probe.self) }
                await started.wait()
                Task {
                    await waitUntil { scope.isShutDown }
                    release.open()
                }
            }
        }
        try await ended.value
        #expect(log.values == ["late"])
    }

    @Test("a just-in-time singleton is released at shutdown")
    func justInTimeReleased() async throws {
        let injector = try await makeInjector { _ in }
        weak var registry: Registry?
        do {
            let built = try await injector.get(Registry.self)
            registry = built
        }
        #expect(registry != nil)
        await injector.shutdown()
        await waitUntil { registry == nil }  // See ShutdownTests.releasesInstances.
        #expect(registry == nil)
    }

    @Test("a cancelled builder of a scoped instance does not fail the request's other waiters")
    func cancelledScopedBuilder() async throws {
        let started = Gate()
        let release = Gate()
        let attempts = Counter()
        let root = try await makeInjector { binder in
            binder.bind(Engine.self).to { _ in
                let attempt = attempts.increment()
                if attempt == 1 {
                    started.open()
                    await release.wait()
                    try Task.checkCancellation()
                }
                return Engine()
            }.inScope(.scoped)
        }
        try await root.withScope { scope in
            let builder = Task { try await scope.get(Engine.self) }
            await started.wait()
            let waiter = Task { try await scope.get(Engine.self) }
            await waitUntil { scope.request?.storage.constructions.isEmpty == false }
            builder.cancel()
            release.open()
            _ = try await waiter.value
            await #expect(throws: CancellationError.self) { try await builder.value }
        }
    }
}
