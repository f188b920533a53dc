#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The events a ``RecordingObserver`` has heard, behind the platform's lock.
///
/// Not `Synchronization.Mutex`: on Linux its contended path runs inside the standard library,
/// which is not built with the thread sanitizer, so the sanitizer misses the lock's hand-over and
/// a user's `swift test --sanitize=thread` would report the events as racing (Objection's own lock
/// says the same, and is internal to it). `pthread_mutex` and `os_unfair_lock` are intercepted by
/// the sanitizer. The events are only touched inside ``withLock(_:)``, which makes the
/// `@unchecked Sendable` sound; no code of a user runs while the lock is held.
final class EventLock<Value>: @unchecked Sendable {
    #if canImport(Darwin)
        private typealias PlatformLock = os_unfair_lock
    #else
        private typealias PlatformLock = pthread_mutex_t
    #endif

    // Allocated once and never moved, as the platform lock requires.
    private let lock = UnsafeMutablePointer<PlatformLock>.allocate(capacity: 1)
    private var value: Value

    init(_ value: Value) {
        self.value = value
        #if canImport(Darwin)
            lock.initialize(to: os_unfair_lock())
        #else
            lock.initialize(to: pthread_mutex_t())
            pthread_mutex_init(lock, nil)
        #endif
    }

    deinit {
        #if !canImport(Darwin)
            pthread_mutex_destroy(lock)
        #endif
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        #if canImport(Darwin)
            os_unfair_lock_lock(lock)
            defer { os_unfair_lock_unlock(lock) }
        #else
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
        #endif
        return try body(&value)
    }
}
