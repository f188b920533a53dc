import Configuration
import Objection
import ServiceLifecycle

/// Refreshes the refreshable bindings whose settings changed, as swift-configuration reports the
/// changes: a service for the lifecycle's `ServiceGroup`, beside the reloading provider it
/// watches (a `ReloadingFileProvider`, which is a service too).
///
/// It watches the reader's snapshots. For each, the settings whose value differs from the one a
/// provider read (``SettingReads``) name the bindings to rebuild: the refreshable ones among the
/// bindings that read them, directly or through what they resolved. Only those are refreshed
/// (``Objection/InjectorActor/refresh(keys:within:)``). A rebuild that fails — a setting changed
/// to a malformed value is ``Objection/InjectionError/Code/invalidSetting``, naming the key and
/// the binding path — keeps the old instance serving and the injector's health degraded; the
/// next change tries again. It ends on graceful shutdown, at once: a rebuild still running then
/// is given up, as a caller's cancellation gives it up: the old instance serves on, and the
/// refresh is reported failed, its cause a `CancellationError`. (The injector's shutdown still
/// waits for that rebuild's task, up to its drain deadline, before it disposes the singletons the
/// rebuild may be using.)
///
/// ```swift
/// let file = try await ReloadingFileProvider<JSONSnapshot>(filePath: "/etc/app/settings.json", pollInterval: .seconds(5))
/// let reader = ConfigReader(provider: file)
/// let injector = try await InjectorActor(modules: [ConfigurationModule(reader), AppModule()])
/// let group = ServiceGroup(
///     services: [file, ConfigurationRefresher(injector: injector, reader: reader), server],
///     logger: logger)
/// try await group.run()
/// ```
public struct ConfigurationRefresher: Service {
    /// One refresh the refresher made: the settings that changed, the bindings it rebuilt, and
    /// the error of those that failed.
    public struct Refresh: Sendable {
        /// The keys of the settings that changed.
        public let settings: [String]
        /// The bindings whose instance was replaced.
        public let rebuilt: [BindingKey]
        /// The refresh's error, if a rebuild failed: ``Objection/InjectionError/Code/refreshFailed``.
        public let error: (any Error)?
    }

    private let injector: InjectorActor
    private let reader: ConfigReader
    private let deadline: Duration
    private let onRefresh: @Sendable (Refresh) -> Void

    /// A refresher of `injector`'s bindings from `reader`'s changes.
    ///
    /// ```swift
    /// ConfigurationRefresher(injector: injector, reader: reader) { refresh in
    ///     logger.info("settings changed", metadata: ["settings": "\(refresh.settings)"])
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - injector: The injector whose refreshable bindings to rebuild; its ``ConfigurationModule``
    ///     must read from `reader`.
    ///   - reader: The reader to watch.
    ///   - deadline: How long each rebuild may take.
    ///   - onRefresh: Told of each refresh, after it: for logs and tests.
    public init(
        injector: InjectorActor,
        reader: ConfigReader,
        deadline: Duration = .seconds(30),
        onRefresh: @escaping @Sendable (Refresh) -> Void = { _ in }
    ) {
        self.injector = injector
        self.reader = reader
        self.deadline = deadline
        self.onRefresh = onRefresh
    }

    /// Watches `reader` until graceful shutdown, refreshing as its settings change.
    ///
    /// ```swift
    /// try await ConfigurationRefresher(injector: injector, reader: reader).run()
    /// ```
    public func run() async throws {
        let reads = try await injector.get(SettingReads.self)
        // Bindings whose last rebuild failed: tried again at every later change, whatever its
        // setting, since the failure may not have been the setting's (a database down, a deadline).
        var failed: Set<BindingKey> = []
        try await reader.watchSnapshot { snapshots in
            for await snapshot in snapshots.cancelOnGracefulShutdown() {
                let retrying = failed
                // A graceful shutdown gives up a rebuild in flight (a failed refresh, its cause a
                // `CancellationError`) instead of waiting for it up to its deadline.
                failed = await cancelWhenGracefulShutdown {
                    await refresh(after: snapshot, reads: reads, retrying: retrying)
                }
            }
        }
    }

    /// Refreshes what `snapshot` changed, and `retrying`; returns the bindings that failed.
    private func refresh(
        after snapshot: ConfigSnapshotReader,
        reads: SettingReads,
        retrying: Set<BindingKey>
    ) async -> Set<BindingKey> {
        let (settings, readers) = reads.changes(in: snapshot)
        guard !settings.isEmpty || !retrying.isEmpty else { return retrying }
        let refreshable = Set(injector.refreshableKeys)
        reads.accept(readers.subtracting(refreshable), from: snapshot)
        let keys = injector.refreshableKeys.filter { readers.contains($0) || retrying.contains($0) }
        guard !keys.isEmpty else { return [] }
        // One key at a time, as the injector rebuilds them: what was replaced is then known even
        // when another key fails (a binding never built is left alone, and is not "rebuilt").
        var rebuilt: [BindingKey] = []
        var failures: [(key: BindingKey, error: any Error)] = []
        for key in keys {
            do {
                rebuilt += try await injector.refresh(keys: [key], within: deadline)
            } catch {
                failures.append((key, error))
            }
        }
        // Taken as read by what was rebuilt: a binding rebuilt over a cached dependency that
        // read the setting does not read it again, and would be rebuilt at every later change.
        reads.accept(Set(rebuilt), from: snapshot)
        onRefresh(Refresh(settings: settings, rebuilt: rebuilt, error: Self.combined(failures)))
        return Set(failures.map(\.key))
    }

    /// The refresh's error from its keys' own: `nil` when none failed, the one as it is, else one
    /// ``Objection/InjectionError/Code/refreshFailed`` naming each key, with each one's problems.
    private static func combined(_ failures: [(key: BindingKey, error: any Error)]) -> (any Error)? {
        guard failures.count > 1 else { return failures.first?.error }
        return InjectionError(
            code: .refreshFailed,
            message: "Refresh failed for \(failures.count) bindings: "
                + failures.map { "'\($0.key)'" }.joined(separator: ", "),
            path: failures.map(\.key),
            // A key's `refreshFailed` has its one problem; its `shutDown` is one.
            problems: failures.compactMap { $0.error as? InjectionError }.flatMap {
                $0.problems.isEmpty ? [$0] : $0.problems
            }
        )
    }
}
