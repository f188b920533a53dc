import ObjectionTesting
import Testing

@testable import Objection

/// A call with runtime arguments takes the binding's own step, as a call without them does: its
/// lifetime decides whether anything is built, a cached instance is built once and disposed with
/// its scope, the observer hears it, and a cycle through it is refused.
@Suite("Runtime arguments follow the binding's lifetime", .hangLimit)
struct RuntimeArgumentLifetimeTests {
    final class Tenant: Sendable {
        let id: String
        init(id: String) { self.id = id }
    }

    enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case transient, singleton, scoped, custom

        var testDescription: String { rawValue }

        var scope: Scope {
            switch self {
            case .transient: .transient
            case .singleton: .singleton
            case .scoped: .scoped
            case .custom: .custom("tenants") { KeepLastCache() }
            }
        }

        static let caching: [Kind] = [.singleton, .scoped, .custom]
    }

    /// A `Tenant` bound with one runtime argument in `kind`'s scope, and the injector to ask: a
    /// request scope's for a scoped binding, the root's otherwise.
    struct Subject: Sendable {
        let root: InjectorActor
        let open: OpenScope?
        let builds = Counter()
        let disposed = Log()

        init(_ kind: Kind, observer: (any InjectionObserver)? = nil) async throws {
            let builds = builds
            let disposed = disposed
            root = try await InjectorActor(
                modules: [
                    TestModule { binder in
                        binder.bind(Tenant.self)
                            .to(arguments: String.self) { _, id in
                                builds.increment()
                                return Tenant(id: id)
                            }
                            .inScope(kind.scope)
                            .onDispose { tenant in disposed.append(tenant.id) }
                    }
                ],
                observer: observer
            )
            open = kind == .scoped ? try await root.openScope() : nil
        }

        var injector: InjectorActor { open?.injector ?? root }

        func tenant(_ id: String) async throws -> Tenant {
            try await injector.get(Tenant.self, arguments: id)
        }
    }

    @Test(
        "a transient is built from each call's arguments; a cached instance from the first call's",
        arguments: Kind.allCases)
    func lifetimeDecides(kind: Kind) async throws {
        let subject = try await Subject(kind)
        let first = try await subject.tenant("a")
        let second = try await subject.tenant("b")
        #expect(first.id == "a")
        if kind == .transient {
            #expect(second.id == "b" && second !== first)
            #expect(subject.builds.value == 2)
        } else {
            #expect(second === first)
            #expect(subject.builds.value == 1)
        }
    }

    @Test(
        "a cached instance asked for with arguments by many tasks at once is built once",
        arguments: [Kind.singleton, .scoped])
    func builtOnce(kind: Kind) async throws {
        let subject = try await Subject(kind)
        // The instances are kept, so that no two can share an address.
        let tenants = try await withThrowingTaskGroup(of: Tenant.self) { group in
            for index in 0..<100 {
                group.addTask { try await subject.tenant("\(index)") }
            }
            return try await group.reduce(into: [Tenant]()) { $0.append($1) }
        }
        #expect(tenants.count == 100)
        #expect(tenants.allSatisfy { $0 === tenants[0] })
        #expect(subject.builds.value == 1)
    }

    @Test("arguments of the wrong type are refused, even when the instance is already built", arguments: Kind.caching)
    func wrongArgumentsRefused(kind: Kind) async throws {
        let subject = try await Subject(kind)
        _ = try await subject.tenant("a")
        let error = await injectionError { _ = try await subject.injector.get(Tenant.self, arguments: 7) }
        #expect(error?.code == .argumentMismatch)
        #expect(error?.message == "'Tenant' takes runtime arguments (String), but was given (Int)")
        let tooMany = await injectionError { _ = try await subject.injector.get(Tenant.self, arguments: "a", "b") }
        #expect(tooMany?.code == .argumentMismatch)
        #expect(subject.builds.value == 1)
    }

    @Test("an instance built with arguments is disposed when its scope ends", arguments: [Kind.singleton, .scoped])
    func disposedWithItsScope(kind: Kind) async throws {
        let subject = try await Subject(kind)
        _ = try await subject.tenant("a")
        #expect(subject.disposed.values.isEmpty)
        if let open = subject.open {
            try await open.end(.succeeded)
        } else {
            _ = await subject.root.shutdown(within: nil)
        }
        #expect(subject.disposed.values == ["a"])
    }

    @Test(
        "the observer hears a construction with arguments, as it hears one without",
        arguments: [Kind.singleton, .scoped])
    func observed(kind: Kind) async throws {
        let observer = RecordingObserver()
        let subject = try await Subject(kind, observer: observer)
        _ = try await subject.tenant("a")
        #expect(observer.started == [BindingKey(Tenant.self)])
        #expect(observer.built == [BindingKey(Tenant.self)])
    }

    @Test(
        "a provider that asks for itself with arguments is a cycle, through its resolver or the injector",
        arguments: [false, true])
    func cycle(throughInjector: Bool) async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Tenant.self).to(arguments: String.self) { resolver, id in
                if throughInjector { return try await resolver.injector.get(Tenant.self, arguments: id + "!") }
                return try await resolver.get(Tenant.self, arguments: id + "!")
            }
        }
        let error = await injectionError { _ = try await injector.get(Tenant.self, arguments: "a") }
        #expect(error?.code == .circularDependency)
        #expect(error?.path == [BindingKey(Tenant.self), BindingKey(Tenant.self)])
    }

    @Test("an injector that has shut down refuses a call with arguments")
    func refusedAfterShutdown() async throws {
        let subject = try await Subject(.transient)
        _ = await subject.root.shutdown(within: nil)
        let error = await injectionError { _ = try await subject.tenant("a") }
        #expect(error?.code == .shutDown)
        #expect(subject.builds.value == 0)
    }
}
