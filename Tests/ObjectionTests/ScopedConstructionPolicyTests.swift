import ObjectionTesting
import Testing

@testable import Objection

/// The one construction policy of a scoped instance (`ScopedConstruction`), which the build in
/// place and the build that suspends both follow. Before it, the two disagreed; each test here
/// pins the behaviour the policy kept where they did.
@Suite("Scoped construction: one policy for the build in place and the build that suspends")
struct ScopedConstructionPolicyTests {
    final class PolicySession: Sendable {}

    /// A scoped `PolicySession`, built in place (its initializer does not suspend), whose first build
    /// blocks its thread until released and then throws `error`.
    struct BlockedBuild {
        let executor = DedicatedThreadExecutor()
        let entered = Gate()
        let release = Latch()
        let attempts = Counter()

        func injector(throwing error: any Error & Sendable) async throws -> InjectorActor {
            let (entered, release, attempts) = (entered, release, attempts)
            return try await makeInjector { binder in
                binder.bind(PolicySession.self).to { () throws -> PolicySession in
                    if attempts.increment() == 1 {
                        entered.open()
                        release.wait()
                        throw error
                    }
                    return PolicySession()
                }.inScope(.scoped)
            }
        }

        /// Starts the build in `scope` and a second task that waits for it; returns both once the
        /// second has joined the construction.
        func startWithWaiter(
            in scope: InjectorActor
        ) async throws -> (builder: Task<PolicySession, any Error>, waiter: Task<PolicySession, any Error>) {
            let builder = Task(executorPreference: executor) { try await scope.get(PolicySession.self) }
            await entered.wait()
            let binding = try #require(try scope.binding(for: BindingKey(PolicySession.self), as: PolicySession.self))
            #expect(binding.isSynchronous)
            let waiter = Task { try await scope.get(PolicySession.self) }
            await waitUntil { scope.slot(for: binding)?.construction?.joins == 1 }
            return (builder, waiter)
        }
    }

    @Test(
        "an InjectionError of a build in place reaches its waiter, which does not build again (as before, suspending)"
    )
    func injectionErrorIsShared() async throws {
        let build = BlockedBuild()
        let thrown = InjectionError.notSuppliedByScope(BindingKey(String.self), path: [BindingKey(String.self)])
        let root = try await build.injector(throwing: thrown)
        try await withDeadline {
            try await root.withScope { scope in
                let (builder, waiter) = try await build.startWithWaiter(in: scope)
                build.release.open()
                for task in [builder, waiter] {
                    let error = await #expect(throws: InjectionError.self) { try await task.value }
                    #expect(error?.code == .missingBinding)
                }
                #expect(build.attempts.value == 1)
                // Not stored: the next get builds it.
                _ = try await scope.get(PolicySession.self)
                #expect(build.attempts.value == 2)
            }
        }
    }

    @Test(
        "a cancelled build in place gives its construction back: its waiter builds instead (as before, suspending)"
    )
    func cancellationIsGivenBack() async throws {
        let build = BlockedBuild()
        let root = try await build.injector(throwing: CancellationError())
        try await withDeadline {
            try await root.withScope { scope in
                let (builder, waiter) = try await build.startWithWaiter(in: scope)
                build.release.open()
                await #expect(throws: CancellationError.self) { try await builder.value }
                let session = try await waiter.value
                #expect(build.attempts.value == 2)
                #expect(try await scope.get(PolicySession.self) === session)
            }
        }
    }

    @Test("a provider error of a build in place reaches the waiting task and is not stored")
    func providerErrorIsShared() async throws {
        let build = BlockedBuild()
        let root = try await build.injector(throwing: ProviderFailure(attempt: 1))
        try await withDeadline {
            try await root.withScope { scope in
                let (builder, waiter) = try await build.startWithWaiter(in: scope)
                build.release.open()
                await #expect(throws: ProviderFailure(attempt: 1)) { try await builder.value }
                await #expect(throws: ProviderFailure(attempt: 1)) { try await waiter.value }
                #expect(build.attempts.value == 1)
            }
        }
    }

    @Test(
        "a value built suspending after its scope began to end is refused, reported failed, and disposed"
    )
    func valueAfterTheEndIsRefused() async throws {
        let observer = RecordingObserver()
        let disposed = Log()
        let root = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(PolicySession.self).to { resolver in
                        // The provider ends its own scope, which does not wait for it (see
                        // ShutdownTests+FromWithin), then returns: its value comes too late.
                        _ = await resolver.injector.shutdown(within: nil)
                        return PolicySession()
                    }.inScope(.scoped).onDispose { _ in disposed.append("session") }
                }
            ],
            observer: observer
        )
        try await withDeadline {
            try await root.withScope { scope in
                let error = await #expect(throws: InjectionError.self) { try await scope.get(PolicySession.self) }
                #expect(error?.code == .shutDown)
            }
        }
        #expect(
            observer.lines.prefix(2) == ["started PolicySession scoped", "failed PolicySession scoped InjectionError"])
        let failure = try #require(observer.failures.first?.error as? InjectionError)
        #expect(failure.code == .shutDown)
        await waitUntil { disposed.values == ["session"] }
    }
}
