import ObjectionTesting
import Testing

@testable import Objection

/// A call with runtime arguments takes the binding's own step, as a call without them does: its
/// lifetime decides whether anything is built, a cached instance is built once and disposed with
/// its scope, the observer hears it, and a cycle through it is refused.
@Suite("Runtime arguments follow the binding's lifetime", .hangLimit)
struct RuntimeArgumentLifetimeTests {
    final class Tenant: Named {
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

    @Test("a call without the arguments it needs is refused, built or not, a Lazy's too", arguments: Kind.caching)
    func noArgumentsRefusedOnceBuilt(kind: Kind) async throws {
        let subject = try await Subject(kind)
        let before = await injectionError { _ = try await subject.injector.get(Tenant.self) }
        #expect(before?.code == .argumentMismatch)
        _ = try await subject.tenant("a")
        let after = await injectionError { _ = try await subject.injector.get(Tenant.self) }
        #expect(after?.code == .argumentMismatch)
        #expect(after?.message == before?.message)
        let lazy = try await subject.injector.get(Lazy<Tenant>.self)
        #expect(await injectionError { _ = try await lazy.value }?.code == .argumentMismatch)
        #expect(try await subject.tenant("b").id == "a")
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

    protocol Named: Sendable { var id: String { get } }
    final class Member: Named {
        let id: String
        init(id: String) { self.id = id }
    }

    @Test(
        "a cached alias of a binding that needs arguments refuses a call without them, built or not",
        arguments: Kind.caching)
    func aliasWithoutArgumentsRefused(kind: Kind) async throws {
        let root = try await makeInjector { binder in
            binder.bind(Member.self).to(arguments: String.self) { _, id in Member(id: id) }
            binder.bind((any Named).self).to(Member.self).inScope(kind.scope)
        }
        let open = kind == .scoped ? try await root.openScope() : nil
        let injector = open?.injector ?? root
        let before = await injectionError { _ = try await injector.get((any Named).self) }
        #expect(before?.code == .argumentMismatch)
        let built = try await injector.get((any Named).self, arguments: "a")
        let after = await injectionError { _ = try await injector.get((any Named).self) }
        #expect(after?.code == .argumentMismatch)
        #expect(after?.message.contains("(String)") == true)
        #expect(try await injector.get((any Named).self, arguments: "b").id == built.id)
        try await open?.end(.succeeded)
    }

    @Test("an alias in a caching scope checks the arguments against its target's, before and after it is built")
    func aliasChecksItsTarget() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Member.self).to(arguments: String.self) { _, id in Member(id: id) }
            binder.bind((any Named).self).to(Member.self).asSingleton()
            binder.bind(Tenant.self).to { _ in Tenant(id: "plain") }
            binder.bind((any Named).self, named: "plain").to(Tenant.self).asSingleton()
        }
        let wrongBefore = await injectionError { _ = try await injector.get((any Named).self, arguments: 7) }
        #expect(wrongBefore?.message == "'Member' takes runtime arguments (String), but was given (Int)")
        #expect(wrongBefore?.path == [BindingKey((any Named).self), BindingKey(Member.self)])
        let first = try await injector.get((any Named).self, arguments: "a")
        #expect(first.id == "a")
        #expect(try await injector.get((any Named).self, arguments: "b").id == "a")
        let wrongAfter = await injectionError { _ = try await injector.get((any Named).self, arguments: 7) }
        #expect(wrongAfter?.code == .argumentMismatch)
        // A target that takes none refuses arguments through the alias, built or not.
        _ = try await injector.get((any Named).self, named: "plain")
        let none = await injectionError { _ = try await injector.get((any Named).self, named: "plain", arguments: "a") }
        #expect(none?.message == "'Tenant' takes no runtime arguments, but was given (String)")
    }

    @Test("a singleton with defaults is built from them by a call without arguments, and read by later calls")
    func defaultsThenArguments() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Tenant.self).to(arguments: String.self) { _, id in Tenant(id: id) }.defaults("default")
                .asSingleton()
        }
        let first = try await injector.get(Tenant.self)
        #expect(first.id == "default")
        #expect(try await injector.get(Tenant.self, arguments: "other") === first)
    }

    @Test(
        "an eager singleton without defaults, and a refreshable binding, that take arguments are configuration errors")
    func buildingOnceWithoutACaller() async throws {
        let error = await injectionError {
            _ = try await makeInjector { binder in
                binder.bind(Tenant.self).to(arguments: String.self) { _, id in Tenant(id: id) }.inScope(.singleton)
                    .asEagerSingleton()
                binder.bind(Member.self).to(arguments: String.self) { _, id in Member(id: id) }.defaults("m")
                    .asRefreshable()
            }
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(
            error?.problems.map { $0.message }.sorted() == [
                "'Member' takes runtime arguments, so it cannot be refreshable: a refresh rebuilds it without them",
                "'Tenant' is an eager singleton but needs runtime arguments: give it defaults(...)",
            ])
    }

    @Test(
        "an eager or refreshable alias to a binding that takes arguments is a configuration error, naming that binding")
    func aliasesBuildingOnceWithoutACaller() async throws {
        let error = await injectionError {
            _ = try await makeInjector { binder in
                binder.bind(Tenant.self).to(arguments: String.self) { _, id in Tenant(id: id) }
                binder.bind(Member.self).to(arguments: String.self) { _, id in Member(id: id) }.defaults("m")
                binder.bind((any Named).self).to(Tenant.self).asEagerSingleton()
                binder.bind((any Named).self, named: "member").to(Member.self).asRefreshable()
                // Through a transient alias too.
                binder.bind((any Named).self, named: "via").to((any Named).self, named: "plain")
                    .asRefreshable()
                binder.bind((any Named).self, named: "plain").to(Member.self)
            }
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(
            error?.problems.map { $0.message }.sorted() == [
                "'Named named \"member\"' cannot be refreshable: 'Member', which it is bound to, takes runtime "
                    + "arguments, and a refresh rebuilds it without them",
                "'Named named \"via\"' cannot be refreshable: 'Member', which it is bound to, takes runtime "
                    + "arguments, and a refresh rebuilds it without them",
                "'Named' is an eager singleton but 'Tenant', which it is bound to, needs runtime arguments: give "
                    + "'Tenant' defaults(...)",
            ])
    }

    @Test("eager and refreshable aliases to what is built without arguments, or read from a cache, are valid")
    func aliasesThatNeedNoArguments() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Tenant.self).to { _ in Tenant(id: "plain") }
            binder.bind((any Named).self).to(Tenant.self).asSingleton()
            // Refreshable and eager aliases to a singleton alias: nothing takes arguments.
            binder.bind((any Named).self, named: "refreshed").to((any Named).self).asRefreshable()
            binder.bind((any Named).self, named: "eager").to((any Named).self).asEagerSingleton()
            // A singleton that takes arguments, with defaults: an alias reads its cache.
            binder.bind(Member.self).to(arguments: String.self) { _, id in Member(id: id) }.defaults("m")
                .asSingleton()
            binder.bind((any Named).self, named: "member").to(Member.self).asRefreshable()
            binder.bind((any Named).self, named: "eager member").to(Member.self).asEagerSingleton()
        }
        #expect(try await injector.get((any Named).self, named: "refreshed").id == "plain")
        #expect(try await injector.get((any Named).self, named: "eager member").id == "m")
        #expect(try await injector.get((any Named).self, named: "member").id == "m")
        #expect(try await injector.refresh().count == 2)
    }

    @Test(
        "in production start-up builds a singleton with defaults from them, and leaves one without, or an alias to one, for its first call"
    )
    func productionStartup() async throws {
        let builds = Counter()
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Tenant.self).to(arguments: String.self) { _, id in
                        builds.increment()
                        return Tenant(id: id)
                    }.inScope(.singleton)
                    binder.bind(Member.self).to(arguments: String.self) { _, id in
                        builds.increment()
                        return Member(id: id)
                    }.defaults("default").asSingleton()
                    // An alias whose target needs arguments: left for its first call too.
                    binder.bind((any Named).self).to(Tenant.self).asSingleton()
                }
            ],
            stage: .production
        )
        #expect(builds.value == 1)
        #expect(try await injector.get(Member.self, arguments: "other").id == "default")
        #expect(try await injector.get(Tenant.self, arguments: "first").id == "first")
        #expect(builds.value == 2)
        // Start-up did not fail on the alias; its first call reads the target's one instance.
        #expect(try await injector.get((any Named).self, arguments: "second").id == "first")
        #expect(builds.value == 2)
    }
}
