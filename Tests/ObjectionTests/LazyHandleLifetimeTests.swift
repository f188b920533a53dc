import ObjectionTesting
import Testing

@testable import Objection

/// A just-in-time singleton that records its disposal.
final class DisposableShed: Injectable, AsyncDisposable {
    static let injection = Injection(DisposableShed.init).asSingleton()
    init() {}
    func dispose() async {}
}

/// A `Lazy` handle's shared resolution is a step like any binding's, over a cell of its own: what
/// it reads belongs to its target's binding, which the observer hears and which disposes it.
@Suite("A Lazy handle's own lifetime", .hangLimit)
struct LazyHandleLifetimeTests {
    @Test("a handle's first use is heard as its target's construction, never as the handle's")
    func heardAsTheTarget() async throws {
        let observer = RecordingObserver()
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Engine.self).to(Engine.init).asSingleton()
                    binder.bind(Wheel.self).to { _ in Wheel() }
                }
            ],
            observer: observer
        )
        let engine = try await injector.get(Lazy<Engine>.self)
        let wheel = try await injector.get(Lazy<Wheel>.self)
        #expect(try await engine.value === (try await engine.value))
        _ = try await wheel.value
        // The singleton is heard once; the transient, as always, not at all; the handles never.
        #expect(observer.started == [BindingKey(Engine.self)])
        #expect(observer.built == [BindingKey(Engine.self)])
    }

    @Test("a value a handle holds is disposed by its target's binding: a singleton once, a transient never")
    func disposedByTheTarget() async throws {
        let log = Log()
        let injector = try await makeInjector { binder in
            binder.bind(Resource.self).to { _ in Resource("singleton", log: log) }.asSingleton()
            binder.bind(Resource.self, named: "each").to { _ in Resource("transient", log: log) }
        }
        let shared = try await injector.get(Lazy<Resource>.self)
        let each = try await injector.get(Lazy<Resource>.self, named: "each")
        _ = try await shared.value
        _ = try await each.value
        _ = await injector.shutdown(within: nil)
        #expect(log.values == ["singleton"])
    }

    @Test("a singleton that resolves itself through a handle is a cycle whose path names the handle")
    func cycleThroughTheHandle() async throws {
        final class Node: Sendable {}
        let injector = try await makeInjector { binder in
            binder.bind(Node.self).to { resolver in
                let again = try await resolver.get(Lazy<Node>.self)
                _ = try await again.value
                return Node()
            }.asSingleton()
        }
        let error = await injectionError { _ = try await injector.get(Node.self) }
        #expect(error?.code == .circularDependency)
        #expect(error?.path.contains(BindingKey(Lazy<Node>.self)) == true)
    }

    @Test("a child's Lazy of a root singleton, aliased or just in time, is refused once the root disposed it")
    func refusedOnceItsOwnerDisposed() async throws {
        let log = Log()
        let root = try await makeInjector { binder in
            binder.bind(Resource.self).to { _ in Resource("pool", log: log) }.asSingleton()
        }
        let child = try await root.child(modules: [
            TestModule { binder in binder.bind(Resource.self, named: "alias").to(Resource.self) }
        ])
        let aliased = try await child.get(Lazy<Resource>.self, named: "alias")
        let justInTime = try await child.get(Lazy<DisposableShed>.self)
        _ = try await aliased.value
        _ = try await justInTime.value
        _ = await root.shutdown(within: nil)
        #expect(log.values == ["pool"])
        #expect(await injectionError { _ = try await child.get(Resource.self, named: "alias") }?.code == .shutDown)
        #expect(await injectionError { _ = try await child.get(DisposableShed.self) }?.code == .shutDown)
        #expect(await injectionError { _ = try await aliased.value }?.code == .shutDown)
        #expect(await injectionError { _ = try await justInTime.value }?.code == .shutDown)
    }

    @Test("while shutdown drains a request, a Lazy of a singleton still answers it, as its get does")
    func answersWhileTheDrainWaits() async throws {
        let log = Log()
        let root = try await makeInjector { binder in
            binder.bind(Resource.self).to { _ in Resource("pool", log: log) }.asSingleton()
        }
        let lazy = try await root.get(Lazy<Resource>.self)
        let before = try await lazy.value
        let request = await HeldRequest.open(on: root) { scope in
            let viaLazy = try await lazy.value
            let viaGet = try await scope.get(Resource.self)
            return viaLazy === before && viaGet === before
        }
        let (same, stopped) = try await request.finish(whileStopping: root) { await root.shutdown(within: nil) }
        #expect(same)
        #expect(stopped == nil)
        #expect(log.values == ["pool"])
        #expect(await injectionError { _ = try await lazy.value }?.code == .shutDown)
    }

    @Test("a Lazy a child of a request scope made is refused once the scope disposed the instance it holds")
    func childOfAScopeRefusedOnceTheScopeEnded() async throws {
        let log = Log()
        let root = try await makeInjector { binder in
            binder.bind(Resource.self).to { _ in Resource("scoped", log: log) }.inScope(.scoped)
        }
        let kept = try await root.withScope { scope in
            let child = try await scope.child(modules: [])
            let lazy = try await child.get(Lazy<Resource>.self)
            #expect(try await lazy.value === (try await child.get(Resource.self)))
            return (child, lazy)
        }
        #expect(log.values == ["scoped"])
        #expect(await injectionError { _ = try await kept.0.get(Resource.self) }?.code == .shutDown)
        #expect(await injectionError { _ = try await kept.1.value }?.code == .shutDown)
    }
}
