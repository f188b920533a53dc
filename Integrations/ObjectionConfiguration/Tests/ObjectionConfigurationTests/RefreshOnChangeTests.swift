import Configuration
import Foundation
import Objection
import ObjectionConfiguration
import Synchronization
import SystemPackage
import Testing

/// `ConfigurationRefresher`: a changed setting rebuilds the refreshable bindings that read it, and
/// only those; a malformed one keeps the old instance; a reloading file provider drives it.
@Suite("Refreshing bindings when their settings change", .timeLimit(.minutes(1)))
struct RefreshOnChangeTests {
    final class Limiter: Sendable {
        let limit: Int
        init(limit: Int) { self.limit = limit }
    }

    struct Beta: Sendable { let isOn: Bool }
    struct Port: Sendable { let value: Int }

    /// Counts the builds of `Beta`.
    final class Builds: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        func increment() { count.withLock { $0 += 1 } }
    }

    private let betaBuilds = Builds()

    private func injector(_ reader: ConfigReader) async throws -> InjectorActor {
        try await InjectorActor(modules: [
            ConfigurationModule(reader),
            TestModule { [betaBuilds] binder in
                binder.bind(Limiter.self).to { r in Limiter(limit: try await r.setting("rate.limit")) }.asRefreshable()
                binder.bind(Beta.self).to { r in
                    betaBuilds.increment()
                    return Beta(isOn: try await r.setting("feature.beta"))
                }.asRefreshable()
                binder.bind(Port.self).to { r in Port(value: try await r.setting("http.port", default: 8080)) }
                    .asSingleton()
            },
        ])
    }

    /// Runs a refresher of `injector` from `reader` while `body` runs, handing `body` its refreshes.
    private func refreshing(
        _ injector: InjectorActor,
        from reader: ConfigReader,
        _ body: (inout AsyncStream<ConfigurationRefresher.Refresh>.Iterator) async throws -> Void
    ) async throws {
        let (refreshes, sink) = AsyncStream.makeStream(of: ConfigurationRefresher.Refresh.self)
        let refresher = Task {
            try await ConfigurationRefresher(injector: injector, reader: reader) { sink.yield($0) }.run()
        }
        var iterator = refreshes.makeAsyncIterator()
        try await body(&iterator)
        refresher.cancel()
        _ = await refresher.result
    }

    @Test("a changed setting rebuilds the refreshable bindings that read it, and only those")
    func rebuildsTheReaders() async throws {
        let provider = MutableInMemoryProvider(initialValues: [
            "rate.limit": ConfigValue(.int(100), isSecret: false),
            "feature.beta": ConfigValue(.bool(false), isSecret: false),
        ])
        let reader = ConfigReader(provider: provider)
        let injector = try await injector(reader)
        #expect(try await injector.get(Limiter.self).limit == 100)
        #expect(try await injector.get(Beta.self).isOn == false)
        _ = try await injector.get(Port.self)
        try await refreshing(injector, from: reader) { (refreshes) async throws in
            provider.setValue(ConfigValue(.int(5), isSecret: false), forKey: "rate.limit")
            let limit = await refreshes.next()
            #expect(limit?.settings == ["rate.limit"])
            #expect(limit?.rebuilt == [BindingKey(Limiter.self)])
            #expect(try await injector.get(Limiter.self).limit == 5)
            #expect(betaBuilds.value == 1)
            // Read by a singleton only: nothing to refresh. It may share a snapshot with the
            // next change, and then is listed with it, but never again after.
            provider.setValue(ConfigValue(.int(9090), isSecret: false), forKey: "http.port")
            provider.setValue(ConfigValue(.bool(true), isSecret: false), forKey: "feature.beta")
            let beta = await refreshes.next()
            #expect(beta?.settings.contains("feature.beta") == true)
            #expect(beta?.rebuilt == [BindingKey(Beta.self)])
            #expect(try await injector.get(Beta.self).isOn)
            #expect(try await injector.get(Limiter.self).limit == 5)
            provider.setValue(ConfigValue(.int(6), isSecret: false), forKey: "rate.limit")
            let again = await refreshes.next()
            #expect(again?.settings == ["rate.limit"])
            #expect(betaBuilds.value == 2)
        }
        #expect(await injector.shutdown() == nil)
    }

    @Test("a setting changed to a malformed value is named with its binding path; the old instance serves")
    func malformedKeepsServing() async throws {
        let provider = MutableInMemoryProvider(initialValues: ["rate.limit": ConfigValue(.int(100), isSecret: false)])
        let reader = ConfigReader(provider: provider)
        let injector = try await injector(reader)
        let first = try await injector.get(Limiter.self)
        try await refreshing(injector, from: reader) { (refreshes) async throws in
            provider.setValue(ConfigValue(.string("s3cr3t-not-a-number"), isSecret: true), forKey: "rate.limit")
            let failed = await refreshes.next()
            let error = try #require(failed?.error as? InjectionError)
            #expect(error.code == .refreshFailed)
            let problem = try #require(error.problems.first)
            #expect(problem.code == .invalidSetting)
            let cause = try #require(problem.underlying as? InjectionError)
            #expect(cause.message.contains("rate.limit"))
            #expect(cause.path == [BindingKey(Limiter.self)])
            #expect(!"\(error)".contains("s3cr3t"))
            #expect(try await injector.get(Limiter.self) === first)
            let health = await injector.health(within: .seconds(5), cachedFor: .zero)
            #expect(health.status == .degraded && health.isReady)
            provider.setValue(ConfigValue(.int(7), isSecret: false), forKey: "rate.limit")
            #expect(await refreshes.next()?.rebuilt == [BindingKey(Limiter.self)])
            #expect(try await injector.get(Limiter.self).limit == 7)
        }
        #expect(await injector.shutdown() == nil)
    }

    @Test("a refresh that fails for one reader reports the other it rebuilt")
    func partlyFailedRefreshNamesWhatItRebuilt() async throws {
        struct Strict: Sendable { let limit: Int }
        struct TooLow: Error {}
        let provider = MutableInMemoryProvider(initialValues: ["rate.limit": ConfigValue(.int(100), isSecret: false)])
        let reader = ConfigReader(provider: provider)
        let injector = try await InjectorActor(modules: [
            ConfigurationModule(reader),
            TestModule { binder in
                binder.bind(Limiter.self).to { r in Limiter(limit: try await r.setting("rate.limit")) }.asRefreshable()
                binder.bind(Strict.self).to { r in
                    let limit: Int = try await r.setting("rate.limit")
                    guard limit >= 10 else { throw TooLow() }
                    return Strict(limit: limit)
                }.asRefreshable()
            },
        ])
        _ = try await injector.get(Limiter.self)
        _ = try await injector.get(Strict.self)
        try await refreshing(injector, from: reader) { (refreshes) async throws in
            provider.setValue(ConfigValue(.int(5), isSecret: false), forKey: "rate.limit")
            let refresh = await refreshes.next()
            #expect((refresh?.error as? InjectionError)?.path == [BindingKey(Strict.self)])
            #expect(refresh?.rebuilt == [BindingKey(Limiter.self)])
            #expect(try await injector.get(Limiter.self).limit == 5)
            #expect(try await injector.get(Strict.self).limit == 100)
        }
        #expect(await injector.shutdown() == nil)
    }

    @Test("a failed refresh does not report as rebuilt a reader that was never built")
    func failedRefreshListsNoUnbuiltReader() async throws {
        struct Strict: Sendable { let limit: Int }
        struct Unbuilt: Sendable { let limit: Int }
        struct TooLow: Error {}
        struct NotYet: Error {}
        let provider = MutableInMemoryProvider(initialValues: ["rate.limit": ConfigValue(.int(100), isSecret: false)])
        let reader = ConfigReader(provider: provider)
        let injector = try await InjectorActor(modules: [
            ConfigurationModule(reader),
            TestModule { binder in
                binder.bind(Strict.self).to { r in
                    let limit: Int = try await r.setting("rate.limit")
                    guard limit >= 10 else { throw TooLow() }
                    return Strict(limit: limit)
                }.asRefreshable()
                // Reads the setting, then fails: a reader of it that was never built.
                binder.bind(Unbuilt.self).to { r in
                    _ = try await r.setting("rate.limit", as: Int.self)
                    throw NotYet()
                }.asRefreshable()
            },
        ])
        _ = try await injector.get(Strict.self)
        await #expect(throws: NotYet.self) { try await injector.get(Unbuilt.self) }
        try await refreshing(injector, from: reader) { (refreshes) async throws in
            provider.setValue(ConfigValue(.int(5), isSecret: false), forKey: "rate.limit")
            let refresh = await refreshes.next()
            #expect((refresh?.error as? InjectionError)?.path == [BindingKey(Strict.self)])
            #expect(refresh?.rebuilt == [])
            #expect(try await injector.get(Strict.self).limit == 100)
        }
        #expect(await injector.shutdown() == nil)
    }

    @Test("a refreshable binding rebuilt over a cached singleton that read the setting is not rebuilt at later changes")
    func rebuiltOverACachedReaderOnce() async throws {
        struct Settings: Sendable { let limit: Int }
        struct Gauge: Sendable { let settings: Settings }
        let builds = Builds()
        let provider = MutableInMemoryProvider(initialValues: [
            "rate.limit": ConfigValue(.int(100), isSecret: false),
            "other": ConfigValue(.int(1), isSecret: false),
        ])
        let reader = ConfigReader(provider: provider)
        let injector = try await InjectorActor(modules: [
            ConfigurationModule(reader),
            TestModule { binder in
                binder.bind(Settings.self).to { r in Settings(limit: try await r.setting("rate.limit")) }.asSingleton()
                binder.bind(Gauge.self).to { r in
                    builds.increment()
                    return Gauge(settings: try await r.get(Settings.self))
                }.asRefreshable()
                binder.bind(Port.self).to { r in Port(value: try await r.setting("other", default: 0)) }.asRefreshable()
            },
        ])
        // The singleton first read the setting below the refreshable binding: both are its readers.
        _ = try await injector.get(Gauge.self)
        _ = try await injector.get(Port.self)
        try await refreshing(injector, from: reader) { (refreshes) async throws in
            provider.setValue(ConfigValue(.int(5), isSecret: false), forKey: "rate.limit")
            #expect(await refreshes.next()?.rebuilt == [BindingKey(Gauge.self)])
            #expect(builds.value == 2)
            // An unrelated change rebuilds its own reader only.
            provider.setValue(ConfigValue(.int(2), isSecret: false), forKey: "other")
            let other = await refreshes.next()
            #expect(other?.settings == ["other"])
            #expect(other?.rebuilt == [BindingKey(Port.self)])
            #expect(builds.value == 2)
        }
        #expect(await injector.shutdown() == nil)
    }

    struct Helper: Sendable { let limit: Int }
    struct Flaky: Error {}

    @Test("a change read first by another binding still refreshes the refreshable one that read it before")
    func anotherReaderCannotHideAChange() async throws {
        let provider = MutableInMemoryProvider(initialValues: ["rate.limit": ConfigValue(.int(100), isSecret: false)])
        let reader = ConfigReader(provider: provider)
        let injector = try await InjectorActor(modules: [
            ConfigurationModule(reader),
            TestModule { binder in
                binder.bind(Limiter.self).to { r in Limiter(limit: try await r.setting("rate.limit")) }.asRefreshable()
                binder.bind(Helper.self).to { r in Helper(limit: try await r.setting("rate.limit")) }
            },
        ])
        #expect(try await injector.get(Limiter.self).limit == 100)
        provider.setValue(ConfigValue(.int(5), isSecret: false), forKey: "rate.limit")
        #expect(try await injector.get(Helper.self).limit == 5)
        try await refreshing(injector, from: reader) { (refreshes) async throws in
            #expect(await refreshes.next()?.rebuilt == [BindingKey(Limiter.self)])
            #expect(try await injector.get(Limiter.self).limit == 5)
        }
        #expect(await injector.shutdown() == nil)
    }

    @Test("a rebuild that failed for another reason than its setting is tried again at the next change")
    func failedRebuildIsRetried() async throws {
        let provider = MutableInMemoryProvider(initialValues: [
            "rate.limit": ConfigValue(.int(100), isSecret: false),
            "feature.beta": ConfigValue(.bool(false), isSecret: false),
        ])
        let reader = ConfigReader(provider: provider)
        let flaky = Builds()
        let injector = try await InjectorActor(modules: [
            ConfigurationModule(reader),
            TestModule { binder in
                binder.bind(Limiter.self).to { r in
                    let limit = try await r.setting("rate.limit", as: Int.self)
                    if flaky.value == 1 { throw Flaky() }
                    return Limiter(limit: limit)
                }.asRefreshable()
            },
        ])
        #expect(try await injector.get(Limiter.self).limit == 100)
        try await refreshing(injector, from: reader) { (refreshes) async throws in
            flaky.increment()
            provider.setValue(ConfigValue(.int(5), isSecret: false), forKey: "rate.limit")
            #expect(await refreshes.next()?.error != nil)
            #expect(try await injector.get(Limiter.self).limit == 100)
            flaky.increment()
            provider.setValue(ConfigValue(.bool(true), isSecret: false), forKey: "feature.beta")
            #expect(await refreshes.next()?.rebuilt == [BindingKey(Limiter.self)])
            #expect(try await injector.get(Limiter.self).limit == 5)
        }
        #expect(await injector.shutdown() == nil)
    }

    @Test("a ReloadingFileProvider whose file is swapped as Kubernetes swaps a ConfigMap drives a refresh")
    func reloadingFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("objection-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (version, limit) in [("v1", 100), ("v2", 25)] {
            let folder = directory.appendingPathComponent(version)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try #"{"rate": {"limit": \#(limit)}, "feature": {"beta": false}}"#
                .write(to: folder.appendingPathComponent("settings.json"), atomically: true, encoding: .utf8)
        }
        let link = directory.appendingPathComponent("settings.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "v1/settings.json")
        let file = try await ReloadingFileProvider<JSONSnapshot>(
            filePath: FilePath(link.path), pollInterval: .milliseconds(20))
        let reader = ConfigReader(provider: file)
        let injector = try await injector(reader)
        #expect(try await injector.get(Limiter.self).limit == 100)
        let polling = Task { try await file.run() }
        try await refreshing(injector, from: reader) { (refreshes) async throws in
            // The kubelet's way: a new link renamed over the old one, in one step.
            let next = directory.appendingPathComponent("settings.json.next")
            try FileManager.default.createSymbolicLink(atPath: next.path, withDestinationPath: "v2/settings.json")
            #expect(rename(next.path, link.path) == 0)
            let refresh = await refreshes.next()
            #expect(refresh?.rebuilt == [BindingKey(Limiter.self)])
            #expect(try await injector.get(Limiter.self).limit == 25)
        }
        polling.cancel()
        _ = await polling.result
        #expect(await injector.shutdown() == nil)
    }
}
