import Configuration
import Objection
import ObjectionConfiguration
import ServiceLifecycleTestKit
import Synchronization
import TestSupport
import Testing

/// `ConfigurationRefresher` ends at a graceful shutdown without waiting for a rebuild in flight.
@Suite("The refresher at a graceful shutdown", .timeLimit(.minutes(1)))
struct RefresherShutdownTests {
    final class Limiter: Sendable {
        let limit: Int
        init(limit: Int) { self.limit = limit }
    }

    @Test("a rebuild that hangs when the graceful shutdown begins is given up, not waited for up to its deadline")
    func hungRebuildIsGivenUp() async throws {
        let provider = MutableInMemoryProvider(initialValues: ["rate.limit": ConfigValue(.int(100), isSecret: false)])
        let reader = ConfigReader(provider: provider)
        let builds = Atomic(0)
        // Holds the rebuild, which ignores cancellation, as a provider stuck on a call without a
        // timeout does.
        let rebuild = Gate()
        let injector = try await InjectorActor(modules: [
            ConfigurationModule(reader),
            TestModule { binder in
                binder.bind(Limiter.self).to { r in
                    let limit = try await r.setting("rate.limit", as: Int.self)
                    if builds.add(1, ordering: .relaxed).newValue > 1 { await rebuild.pass() }
                    return Limiter(limit: limit)
                }.asRefreshable()
            },
        ])
        #expect(try await injector.get(Limiter.self).limit == 100)
        let (refreshes, sink) = AsyncStream.makeStream(of: ConfigurationRefresher.Refresh.self)
        // A deadline far past the suite's time limit: waiting for it is the failure.
        let refresher = ConfigurationRefresher(injector: injector, reader: reader, deadline: .seconds(3_600)) {
            sink.yield($0)
        }
        try await testGracefulShutdown { trigger in
            async let run: Void = refresher.run()
            provider.setValue(ConfigValue(.int(5), isSecret: false), forKey: "rate.limit")
            await rebuild.waitForArrivals(1)
            trigger.triggerGracefulShutdown()
            try await run
        }
        var iterator = refreshes.makeAsyncIterator()
        let refresh = await iterator.next()
        #expect(refresh?.settings == ["rate.limit"])
        #expect(refresh?.rebuilt == [])
        let error = try #require(refresh?.error as? InjectionError)
        #expect(error.code == .refreshFailed)
        #expect(error.problems.first?.underlying is CancellationError)
        #expect(try await injector.get(Limiter.self).limit == 100)
        rebuild.open()
        #expect(await injector.shutdown() == nil)
    }
}
