/// Hears how one construction ends: what a ``BindingObserver`` answered when the construction
/// started — the construction's span, or the binding observer itself when it keeps nothing per
/// construction.
///
/// Exactly one of its two methods is called, once, on the task that built the instance.
///
/// ```swift
/// final class OpenSpan: ConstructionObserver {
///     let span: any Span
///     init(_ span: any Span) { self.span = span }
///
///     func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {
///         span.end()
///     }
///     func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
///         span.recordError(error)
///         span.end()
///     }
/// }
/// ```
public protocol ConstructionObserver: AnyObject, Sendable {
    /// The construction built its instance.
    ///
    /// ```swift
    /// func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {
    ///     timer.record(duration: duration)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - construction: The construction, as it was when it started.
    ///   - duration: How long its provider took, its dependencies included.
    func constructionFinished(_ construction: ObservedConstruction, duration: Duration)

    /// The construction threw `error`; nothing was cached.
    ///
    /// ```swift
    /// func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
    ///     failures.increment()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - construction: The construction, as it was when it started.
    ///   - duration: How long the attempt took.
    ///   - error: The provider's error, or the ``InjectionError`` of a dependency.
    func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error)
}
