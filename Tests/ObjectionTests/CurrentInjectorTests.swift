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
