/// The caching policy of one binding in a custom scope (see ``Scope/custom(_:cache:)``).
///
/// ```swift
/// final class ExpiringCache: ScopeCache {
///     func cachedInstance<T: Sendable>(as type: T.Type) -> T? { … }   // nil once expired
///     func keep<T: Sendable>(_ instance: T) { … }
/// }
/// ```
///
/// The injector calls it from any task; make it thread-safe.
public protocol ScopeCache: AnyObject, Sendable {
    /// The instance to reuse, if the policy still offers one.
    ///
    /// - Parameter type: The binding's type.
    /// - Returns: The instance, or `nil` to build a new one.
    func cachedInstance<T: Sendable>(as type: T.Type) -> T?

    /// Keeps an instance just built, for later resolutions.
    ///
    /// - Parameter instance: The new instance.
    func keep<T: Sendable>(_ instance: T)
}

/// The cache of ``Scope/weak``: a weak reference to the last instance.
///
/// `@unchecked Sendable` because a weak reference cannot live inside a `Lock`'s value; every
/// access to `object` holds `lock`.
final class WeakReferenceCache: ScopeCache, @unchecked Sendable {
    private weak var object: AnyObject?
    private let lock = Lock(())

    func cachedInstance<T: Sendable>(as type: T.Type) -> T? {
        lock.withLock { _ in object as? T }
    }

    func keep<T: Sendable>(_ instance: T) {
        guard Swift.type(of: instance as Any) is AnyClass else { return }
        let reference = instance as AnyObject
        lock.withLock { _ in object = reference }
    }
}
