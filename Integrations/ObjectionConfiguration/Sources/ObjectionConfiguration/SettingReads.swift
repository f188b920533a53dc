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
    private let reads = Mutex<[String: Read]>([:])

    private struct Read {
        var fingerprint: Int?
        var readers: Set<BindingKey> = []
    }

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
        reads.withLock { $0[key]?.readers ?? [] }
    }

    /// Records that the providers on `path` read `key`, which held the value of `fingerprint`.
    func record(_ key: String, fingerprint: Int?, readBy path: [BindingKey]) {
        reads.withLock { reads in
            reads[key, default: Read()].fingerprint = fingerprint
            reads[key, default: Read()].readers.formUnion(path)
        }
    }

    /// The settings whose value in `snapshot` differs from the one read, and their readers.
    func changes(in snapshot: ConfigSnapshotReader) -> (settings: [String], readers: Set<BindingKey>) {
        let recorded = reads.withLock { $0 }
        var settings: [String] = []
        var readers: Set<BindingKey> = []
        for (key, read) in recorded.sorted(by: { $0.key < $1.key })
        where Self.fingerprint(of: ConfigKey(key), in: snapshot) != read.fingerprint {
            settings.append(key)
            readers.formUnion(read.readers)
        }
        return (settings, readers)
    }

    /// Takes the values of `settings` in `snapshot` as read: for settings no refreshable binding
    /// reads, which no rebuild will read again.
    func accept(_ settings: [String], from snapshot: ConfigSnapshotReader) {
        let fingerprints = settings.map { Self.fingerprint(of: ConfigKey($0), in: snapshot) }
        reads.withLock { reads in
            for (key, fingerprint) in zip(settings, fingerprints) { reads[key]?.fingerprint = fingerprint }
        }
    }

    /// A hash of the value `key` holds in `snapshot`, whatever its type; `nil` when it holds
    /// none. Read as a secret, so that no access reporter logs it.
    static func fingerprint(of key: ConfigKey, in snapshot: ConfigSnapshotReader) -> Int? {
        var hasher = Hasher()
        if let value = snapshot.string(forKey: key, isSecret: true) {
            hasher.combine(0)
            hasher.combine(value)
        } else if let value = snapshot.int(forKey: key, isSecret: true) {
            hasher.combine(1)
            hasher.combine(value)
        } else if let value = snapshot.double(forKey: key, isSecret: true) {
            hasher.combine(2)
            hasher.combine(value)
        } else if let value = snapshot.bool(forKey: key, isSecret: true) {
            hasher.combine(3)
            hasher.combine(value)
        } else if let value = snapshot.stringArray(forKey: key, isSecret: true) {
            hasher.combine(4)
            hasher.combine(value)
        } else if let value = snapshot.intArray(forKey: key, isSecret: true) {
            hasher.combine(5)
            hasher.combine(value)
        } else if let value = snapshot.doubleArray(forKey: key, isSecret: true) {
            hasher.combine(6)
            hasher.combine(value)
        } else if let value = snapshot.boolArray(forKey: key, isSecret: true) {
            hasher.combine(7)
            hasher.combine(value)
        } else if let value = snapshot.bytes(forKey: key, isSecret: true) {
            hasher.combine(8)
            hasher.combine(value)
        } else {
            return nil
        }
        return hasher.finalize()
    }
}
