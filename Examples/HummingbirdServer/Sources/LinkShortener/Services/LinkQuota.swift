import NIOConcurrencyHelpers
import Objection

/// How many links each user may create while this quota is in force: the setting `link.quota`
/// (100 unless set), a refreshable singleton. Changing the setting — an edited settings file, a
/// swapped ConfigMap — refreshes it without a restart (`ConfigurationRefresher`): requests that
/// read it afterwards get a new quota, with its counts at zero; a request that read the old one
/// keeps it to its end, and the old one is disposed after the last such request.
///
/// A request is counted when it arrives, before its body is read: the quota is on attempts.
///
/// ```swift
/// let quota = try await context.resolve(LinkQuota.self)
/// guard quota.admit(user.name) else { throw HTTPError(.tooManyRequests) }
/// ```
public final class LinkQuota: AsyncDisposable, Sendable {
    /// The links each user may create.
    public let limit: Int
    private let created = NIOLockedValueBox<[String: Int]>([:])
    private let history: QuotaHistory

    /// The name the lifecycle log gives this instance: `LinkQuota(100)`.
    public var name: String { "LinkQuota(\(limit))" }

    /// A quota of `limit` links per user, recording its construction and disposal in `history`.
    ///
    /// ```swift
    /// let quota = LinkQuota(limit: 100, history: QuotaHistory())
    /// ```
    public init(limit: Int, history: QuotaHistory) {
        self.limit = limit
        self.history = history
        history.record(.built("LinkQuota(\(limit))"))
    }

    /// Counts one more link for `user`; `false` once the user has created `limit`.
    ///
    /// ```swift
    /// if !quota.admit("alice") { /* 429 */ }
    /// ```
    public func admit(_ user: String) -> Bool {
        created.withLockedValue { created in
            guard created[user, default: 0] < limit else { return false }
            created[user, default: 0] += 1
            return true
        }
    }

    /// How many links `user` created under this quota.
    ///
    /// ```swift
    /// #expect(quota.created(by: "alice") == 1)
    /// ```
    public func created(by user: String) -> Int {
        created.withLockedValue { $0[user, default: 0] }
    }

    /// Records the disposal: the injector calls it once, after the last request that used it.
    public func dispose() async throws {
        history.record(.disposed(name))
    }
}

/// Where each ``LinkQuota`` records its construction and disposal: what an operator (and the
/// tests) read to see a refresh replace one and dispose the old one once. Kept apart from
/// ``LifecycleLog``, which lists the singletons built once for the process.
///
/// ```swift
/// let history = try await injector.get(QuotaHistory.self)
/// print(history.events)   // [built LinkQuota(100), built LinkQuota(1), disposed LinkQuota(100)]
/// ```
public final class QuotaHistory: Sendable {
    private let log = LifecycleLog()

    /// An empty history.
    ///
    /// ```swift
    /// binder.bind(QuotaHistory.self).toInstance(QuotaHistory())
    /// ```
    public init() {}

    /// What happened, in order.
    public var events: [LifecycleLog.Event] { log.events }

    func record(_ event: LifecycleLog.Event) { log.record(event) }
}
