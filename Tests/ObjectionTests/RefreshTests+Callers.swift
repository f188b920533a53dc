import ObjectionTesting
import Testing

@testable import Objection

/// What one refresh's caller does to the others: its cancellation is its own, and its task-local
/// values do not reach the generation every later request is served.
@Suite("Refresh callers keep to themselves", .hangLimit)
struct RefreshCallerTests {
    final class Limiter: Sendable {
        let build: Int
        let trace: String?
        let currentIsScope: Bool

        init(build: Int) {
            self.build = build
            trace = RefreshCallerTests.traceID
            currentIsScope = InjectorActor.current?.isScope == true
        }
    }

    @TaskLocal static var traceID: String?

    @Test("a refresh whose run another caller's cancelled rebuild took is answered by a rebuild of its own")
    func runnersCancellationIsNotHandedOn() async throws {
        let builds = Counter()
        let (firstRebuild, releaseFirst) = (Gate(), Gate())
        let (secondRebuild, releaseSecond) = (Gate(), Gate())
        let injector = try await makeInjector { binder in
            binder.bind(Limiter.self).to { _ in
                let build = builds.increment()
                if build == 2 {
                    firstRebuild.open()
                    await releaseFirst.wait()
                }
                if build == 3 {
                    secondRebuild.open()
                    await releaseSecond.wait()
                }
                return Limiter(build: build)
            }.asRefreshable()
        }
        _ = try await injector.get(Limiter.self)
        let generations = try #require(injector.table.binding(for: BindingKey(Limiter.self))?.lifetime.generations)
        // Deadlines no busy machine reaches: the rebuilds are held until the test releases them.
        try await withDeadline {
            let first = Task { try await injector.refresh(Limiter.self, within: .seconds(3_600)) }
            await firstRebuild.wait()
            // Both ask while the first rebuild runs: the next run covers both.
            let b = Task { try await injector.refresh(Limiter.self, within: .seconds(3_600)) }
            await waitUntil { generations.asked == 2 }
            let c = Task { try await injector.refresh(Limiter.self, within: .seconds(3_600)) }
            await waitUntil { generations.asked == 3 }
            releaseFirst.open()
            let firstRefreshed = try await first.value
            #expect(firstRefreshed)
            await secondRebuild.wait()
            // One runs the rebuild, the other (ticket 2 is b's, 3 is c's) waits for it.
            await waitUntil { generations.waitingTickets.count == 1 }
            let (cancelled, other) = generations.waitingTickets == [3] ? (b, c) : (c, b)
            cancelled.cancel()
            // The runner leaves with its cancellation (as a failed refresh of its binding).
            await #expect(throws: (any Error).self) { try await cancelled.value }
            releaseSecond.open()
            let otherRefreshed = try await other.value
            #expect(otherRefreshed)
        }
        // The other caller's refresh ran again: a fourth build serves now.
        let serving = try await injector.get(Limiter.self).build
        #expect(serving == 4)
        #expect(await injector.shutdown(within: nil) == nil)
    }

    @Test("a rebuild asked inside a request reads none of the request's task-local values, nor its scope as current")
    func rebuildRunsOutsideTheRequest() async throws {
        let builds = Counter()
        let injector = try await makeInjector { binder in
            binder.bind(Limiter.self).to { _ in Limiter(build: builds.increment()) }.asRefreshable()
        }
        #expect(try await injector.get(Limiter.self).build == 1)
        try await RefreshCallerTests.$traceID.withValue("request-42") {
            try await injector.withScope { scope in _ = try await scope.refresh(Limiter.self) }
        }
        let next = try await injector.get(Limiter.self)
        #expect(next.build == 2)
        #expect(next.trace == nil)
        #expect(!next.currentIsScope)
        #expect(await injector.shutdown(within: nil) == nil)
    }
}
