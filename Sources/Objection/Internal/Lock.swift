#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A lock around a value, shaped like `Synchronization.Mutex`.
///
/// Why not `Mutex` itself: on Linux its contended path runs inside the standard library, which
/// is not built with the thread sanitizer, so the sanitizer misses the lock's hand-over and
/// reports the state it protects as racing. Users of this library run their own suites under
/// `--sanitize=thread`; they must not see such reports. `pthread_mutex` and `os_unfair_lock` are
/// intercepted by the sanitizer. The value is only ever touched inside ``withLock(_:)``, which is
/// what makes the `@unchecked Sendable` sound; no code of a user runs while it is held.
@usableFromInline
final class Lock<Value: Sendable>: @unchecked Sendable {
    @usableFromInline var value: Value
    #if canImport(Darwin)
        @usableFromInline let handle: UnsafeMutablePointer<os_unfair_lock>
    #else
        @usableFromInline let handle: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    @usableFromInline
    init(_ value: Value) {
        self.value = value
        handle = .allocate(capacity: 1)
        #if canImport(Darwin)
            handle.initialize(to: os_unfair_lock())
        #else
            handle.initialize(to: pthread_mutex_t())
            pthread_mutex_init(handle, nil)
        #endif
    }

    deinit {
        #if !canImport(Darwin)
            pthread_mutex_destroy(handle)
        #endif
        handle.deinitialize(count: 1)
        handle.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        #if canImport(Darwin)
            os_unfair_lock_lock(handle)
            defer { os_unfair_lock_unlock(handle) }
        #else
            pthread_mutex_lock(handle)
            defer { pthread_mutex_unlock(handle) }
        #endif
        return try body(&value)
    }
}
