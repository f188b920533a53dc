import Testing

@testable import Objection

/// Bad input: odd and huge deadlines, extreme depth limits, and values that errors must never show.
@Suite("Hostile: input", .timeLimit(.minutes(2)))
struct HostileInputTests {
    @Test("start(within:) with zero and negative deadlines neither hangs nor crashes")
    func oddDeadlines() async throws {
        for deadline in [Duration.zero, .seconds(-5), .nanoseconds(1), .seconds(-Int64.max)] {
            let injector = try await InjectorActor(
                modules: [
                    TestModule {
                        $0.bind(Engine.self).to { _ in
                            await Task.yield(); return Engine()
                        }.asEagerSingleton()
                    }
                ],
                startup: .deferred
            )
            let result = try await bounded { await outcome { try await injector.start(within: deadline) } }
            if case .failure(let error) = result {
                #expect((error as? InjectionError)?.code == .timedOut, "\(error)")
            }
            await injector.shutdown()
        }
    }

    @Test("start(within:) with a deadline of Int64.max seconds does not crash the process")
    func hugeDeadline() async throws {
        let injector = try await InjectorActor(
            modules: [TestModule { $0.bind(Engine.self).to(Engine.init).asEagerSingleton() }],
            startup: .deferred
        )
        try await injector.start(within: .seconds(Int64.max))
        _ = try await injector.get(Engine.self)
    }

    @Test("Startup.immediate(within:) with a deadline of Int64.max seconds does not crash the process")
    func hugeImmediateDeadline() async throws {
        let injector = try await InjectorActor(
            modules: [TestModule { $0.bind(Engine.self).to(Engine.init).asEagerSingleton() }],
            startup: .immediate(within: .seconds(Int64.max))
        )
        _ = try await injector.get(Engine.self)
    }

    @Test(
        "extreme maxResolutionDepth values still report cycles and depth, never trap",
        arguments: [Int.min, -1, 0, 1, 2, Int.max])
    func extremeDepthLimits(limit: Int) async throws {
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(NodeA.self).to { r in
                        _ = try await r.get(NodeB.self); return NodeA()
                    }.asSingleton()
                    b.bind(NodeB.self).to { r in
                        _ = try await r.get(NodeA.self); return NodeB()
                    }
                    b.bind(Engine.self).to { _ in Engine() }
                }
            ],
            observer: StrictObserver(),
            maxResolutionDepth: limit
        )
        _ = try await injector.get(Engine.self)
        let error = try await bounded { await injectionError { _ = try await injector.get(NodeA.self) } }
        #expect(
            error?.code == .circularDependency || error?.code == .depthLimitExceeded, "\(String(describing: error))")
    }

    @Test("errors about arguments, request values and conversions never show a value")
    func errorsNeverShowValues() async throws {
        final class Holder: Sendable {
            let secret: Secret
            init(secret: Secret) { self.secret = secret }
        }
        let injector = try await makeInjector { b in
            b.bind(Secret.self).toInstance(Secret())
            b.bind(Headlight.self).to(arguments: Int.self) { _, _ in Headlight(side: .left) }
            b.bind(Holder.self).to(Holder.init)
        }
        var errors: [InjectionError] = []
        if let e = await injectionError({ _ = try await injector.get(Headlight.self, arguments: Secret()) }) {
            errors.append(e)
        }
        if let e = await injectionError({ _ = try await injector.get(Headlight.self, arguments: 1, Secret()) }) {
            errors.append(e)
        }
        if let e = await injectionError({
            try await injector.withScope(values: { $0.bind(Secret.self, to: Secret()) }) { _ in }
        }) {
            errors.append(e)
        }
        if let e = await injectionError({ _ = try await injector.get(Holder.self, arguments: Secret()) }) {
            errors.append(e)
        }
        #expect(errors.count == 4)
        for e in errors {
            let text = "\(e) \(e.message) \(e.path) \(e.problems) \(String(describing: e.underlying))"
            #expect(!text.contains("SECRET"), "\(text)")
        }
    }
}
