#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(Darwin)
    typealias PlatformLock = os_unfair_lock
#else
    typealias PlatformLock = pthread_mutex_t
#endif

/// The platform lock's four operations, on a lock that lives at a fixed address: the tail of a
/// ``Lock``'s storage or the header of a request scope's ``RequestState``.
enum PlatformLocking {
    static func initialize(_ lock: UnsafeMutablePointer<PlatformLock>) {
        #if canImport(Darwin)
            lock.initialize(to: os_unfair_lock())
        #else
            lock.initialize(to: pthread_mutex_t())
            pthread_mutex_init(lock, nil)
        #endif
    }

    static func lock(_ lock: UnsafeMutablePointer<PlatformLock>) {
        #if canImport(Darwin)
            os_unfair_lock_lock(lock)
        #else
            pthread_mutex_lock(lock)
        #endif
    }

    static func unlock(_ lock: UnsafeMutablePointer<PlatformLock>) {
        #if canImport(Darwin)
            os_unfair_lock_unlock(lock)
        #else
            pthread_mutex_unlock(lock)
        #endif
    }

    static func destroy(_ lock: UnsafeMutablePointer<PlatformLock>) {
        #if !canImport(Darwin)
            pthread_mutex_destroy(lock)
        #endif
        _ = lock.deinitialize(count: 1)
    }
}

/// A lock around a value, shaped like `Synchronization.Mutex`.
///
/// Why not `Mutex` itself: on Linux its contended path runs inside the standard library, which
/// is not built with the thread sanitizer, so the sanitizer misses the lock's hand-over and
/// reports the state it protects as racing. Users of this library run their own suites under
/// `--sanitize=thread`; they must not see such reports. `pthread_mutex` and `os_unfair_lock` are
/// intercepted by the sanitizer. The value and the platform lock share one allocation.
///
/// The value is only ever touched inside ``withLock(_:)``, which is what makes the
/// `@unchecked Sendable` sound; no code of a user runs while it is held.
struct Lock<Value: Sendable>: @unchecked Sendable {
    let storage: ManagedBuffer<Value, PlatformLock>

    init(_ value: Value) {
        storage = LockStorage.create(minimumCapacity: 1) { _ in value }
        storage.withUnsafeMutablePointerToElements(PlatformLocking.initialize)
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, lock in
            PlatformLocking.lock(lock)
            defer { PlatformLocking.unlock(lock) }
            return try body(&value.pointee)
        }
    }
}

/// The storage of a ``Lock``: it destroys the platform lock with the value.
final class LockStorage<Value>: ManagedBuffer<Value, PlatformLock> {
    deinit {
        withUnsafeMutablePointerToElements(PlatformLocking.destroy)
    }
}
