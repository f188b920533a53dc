import Configuration
import Objection
import Synchronization

/// Which bindings read which settings, and a fingerprint of what each setting held when it was
/// read: recorded by ``Objection/Resolver/setting(_:as:isSecret:)`` while a provider runs, so that
/// ``ConfigurationRefresher`` refreshes the bindings that read a changed setting, and only those,
/// with no list kept by hand. ``ConfigurationModule`` binds one per injector.
///
/// A fingerprint is a hash of the value, seeded per process: no setting's value is kept.
///
/// ```swift
/// let reads = try await injector.get(SettingReads.self)
/// let readers = reads.readers(of: "rate.limit")   // [RateLimiter, and what resolved it]
/// ```
public final class SettingReads: Sendable {
    /// Per setting, each binding that read it and the fingerprint of what it read then: a
    /// binding's own, so that another binding reading the setting later (a request's helper,
    /// after the change) cannot hide the change from it.
    private let reads = Mutex<[String: [BindingKey: Int?]]>([:])

    /// An empty record; ``ConfigurationModule`` makes the one its injector uses.
    ///
    /// ```swift
    /// binder.bind(SettingReads.self).toInstance(SettingReads())
    /// ```
    public init() {}

    /// The bindings that read `key` so far: each binding on the path of a provider that read it.
    ///
    /// ```swift
    /// #expect(reads.readers(of: "rate.limit").contains(BindingKey(RateLimiter.self)))
    /// ```
    ///
    /// - Parameter key: The setting's key, as the provider named it.
    /// - Returns: The keys of those bindings.
    public func readers(of key: String) -> Set<BindingKey> {
        reads.withLock { Set($0[key]?.keys ?? [:].keys) }
    }

    /// Records that the providers on `path` read `key`, which held the value of `fingerprint`.
    func record(_ key: String, fingerprint: Int?, readBy path: [BindingKey]) {
        reads.withLock { reads in
            for reader in path { reads[key, default: [:]][reader] = .some(fingerprint) }
        }
    }

    /// The settings whose value in `snapshot` differs from what one of their readers read, and
    /// those readers.
    func changes(in snapshot: ConfigSnapshotReader) -> (settings: [String], readers: Set<BindingKey>) {
        let recorded = reads.withLock { $0 }
        var settings: [String] = []
        var readers: Set<BindingKey> = []
        for (key, readersOfKey) in recorded.sorted(by: { $0.key < $1.key }) {
            let now = Self.fingerprint(of: ConfigKey(key), in: snapshot)
            let changed = readersOfKey.filter { $0.value != now }.keys
            guard !changed.isEmpty else { continue }
            settings.append(key)
            readers.formUnion(changed)
        }
        return (settings, readers)
    }

    /// Takes the values in `snapshot` as read by `readers`, which nothing rebuilds (they are not
    /// refreshable), so that their changes are not reported again.
    func accept(_ readers: Set<BindingKey>, from snapshot: ConfigSnapshotReader) {
        guard !readers.isEmpty else { return }
        let keys = reads.withLock { Array($0.keys) }
        let fingerprints = Dictionary(
            uniqueKeysWithValues: keys.map { ($0, Self.fingerprint(of: ConfigKey($0), in: snapshot)) })
        // Each key's own readers, looked up in `readers`: linear in the reads recorded, however
        // many readers changed (the other way round, 100,000 keys by 100,000 readers, held the
        // lock every setting read needs for minutes).
        reads.withLock { reads in
            for (key, fingerprint) in fingerprints {
                guard let readersOfKey = reads[key] else { continue }
                for reader in readersOfKey.keys where readers.contains(reader) {
                    reads[key]?[reader] = .some(fingerprint)
                }
            }
        }
    }

    /// A hash of the value `key` holds in `snapshot`, whatever its type; `nil` when it holds
    /// none. Read as a secret, so that no access reporter logs it.
    static func fingerprint(of key: ConfigKey, in snapshot: ConfigSnapshotReader) -> Int? {
        for (tag, read) in typedReads.enumerated() {
            guard let value = read(snapshot, key) else { continue }
            var hasher = Hasher()
            hasher.combine(tag)
            hasher.combine(value)
            return hasher.finalize()
        }
        return nil
    }

    /// Every typed read a snapshot offers, tried in turn: the first that answers is the value's
    /// type (its position tells `1` from `"1"`).
    private static let typedReads: [@Sendable (ConfigSnapshotReader, ConfigKey) -> AnyHashable?] = [
        { $0.string(forKey: $1, isSecret: true) },
        { $0.int(forKey: $1, isSecret: true) },
        { $0.double(forKey: $1, isSecret: true) },
        { $0.bool(forKey: $1, isSecret: true) },
        { $0.stringArray(forKey: $1, isSecret: true) },
        { $0.intArray(forKey: $1, isSecret: true) },
        { $0.doubleArray(forKey: $1, isSecret: true) },
        { $0.boolArray(forKey: $1, isSecret: true) },
        { $0.bytes(forKey: $1, isSecret: true) },
    ]
}
