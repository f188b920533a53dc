import Testing

@testable import Objection

@Suite("The task-local current injector")
struct CurrentInjectorTests {
    static func injector(_ dsn: String) async throws -> InjectorActor {
        try await makeInjector { $0.bind(Config.self).toInstance(Config(dsn: dsn)) }
    }

    @Test("withCurrent binds the injector for its body and for child tasks")
    func inheritedByChildTasks() async throws {
        let injector = try await Self.injector("a")
        try await InjectorActor.withCurrent(injector) {
            #expect(InjectorActor.current === injector)
            async let fromAsyncLet = InjectorActor.current
            #expect(await fromAsyncLet === injector)
            let fromGroup = await withTaskGroup(of: InjectorActor?.self) { group in
                group.addTask { InjectorActor.current }
                return await group.next() ?? nil
            }
            #expect(fromGroup === injector)
            let fromTask = await Task { InjectorActor.current }.value
            #expect(fromTask === injector)
            let config = try await InjectorActor.current?.get(Config.self)
            #expect(config == Config(dsn: "a"))
        }
    }

    @Test("Task.detached does not inherit it; detachedTask captures and rebinds it")
    func detached() async throws {
        let injector = try await Self.injector("a")
        try await InjectorActor.withCurrent(injector) {
            let plain = await Task.detached { InjectorActor.taskCurrent }.value
            #expect(plain == nil)
            let captured = try await InjectorActor.detachedTask { InjectorActor.current }.value
            #expect(captured === injector)
        }
    }

    @Test("an override in one task never leaks into a sibling, nor past its body")
    func noLeaks() async throws {
        let first = try await Self.injector("first")
        let second = try await Self.injector("second")
        let bothInside = Gate()
        let arrivals = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (injector, dsn) in [(first, "first"), (second, "second")] {
                group.addTask {
                    try await InjectorActor.withCurrent(injector) {
                        if arrivals.increment() == 2 { bothInside.open() }
                        await bothInside.wait()
                        let config = try await InjectorActor.current?.get(Config.self)
                        #expect(config == Config(dsn: dsn))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(InjectorActor.taskCurrent == nil)
    }
}

/// Serialized because the process default is one value for the whole process; each test puts
/// back the default it found, and no other suite sets it.
@Suite("The process default injector", .serialized)
struct DefaultInjectorTests {
    @Test("the process default is the fallback of current, and task-locals win over it")
    func processDefault() async throws {
        let root = try await CurrentInjectorTests.injector("default")
        let previous = InjectorActor.setDefault(root)
        defer { InjectorActor.setDefault(previous) }
        #expect(InjectorActor.current === root)
        #expect(try await InjectorActor.current?.get(Config.self) == Config(dsn: "default"))
        let other = try await CurrentInjectorTests.injector("other")
        await InjectorActor.withCurrent(other) { #expect(InjectorActor.current === other) }
        #expect(InjectorActor.current === root)
    }

    @Test("setDefault replaces the default, returns the one it replaced, and nil clears it")
    func replaceAndClear() async throws {
        let first = try await CurrentInjectorTests.injector("first")
        let second = try await CurrentInjectorTests.injector("second")
        let previous = InjectorActor.setDefault(nil)
        defer { InjectorActor.setDefault(previous) }
        #expect(InjectorActor.current == nil)

        #expect(InjectorActor.setDefault(first) == nil)
        #expect(InjectorActor.current === first)
        #expect(InjectorActor.setDefault(first) === first)
        #expect(InjectorActor.current === first)

        #expect(InjectorActor.setDefault(second) === first)
        #expect(InjectorActor.current === second)
        #expect(try await InjectorActor.current?.get(Config.self) == Config(dsn: "second"))
        // The replaced injector is not shut down; it still resolves.
        #expect(try await first.get(Config.self) == Config(dsn: "first"))
        // A task-local binding still wins over the new default.
        await InjectorActor.withCurrent(first) { #expect(InjectorActor.current === first) }

        #expect(InjectorActor.setDefault(nil) === second)
        #expect(InjectorActor.current == nil)
    }

    @Test("currentScope is the request's scope inside withScope, and nil outside it, whatever the default")
    func currentScope() async throws {
        let root = try await makeInjector { $0.bind(Engine.self).to(Engine.init) }
        #expect(InjectorActor.currentScope == nil)
        try await InjectorActor.withCurrent(root) {
            #expect(InjectorActor.current === root)
            #expect(InjectorActor.currentScope == nil)
            try await root.withScope { scope in
                #expect(InjectorActor.currentScope === scope)
                let child = try await scope.child(modules: [])
                await InjectorActor.withCurrent(child) {
                    // A child of the scope still serves the same request.
                    #expect(InjectorActor.currentScope === scope)
                }
            }
        }
    }
}
