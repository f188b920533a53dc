/// Observes the constructions of one binding: what an ``InjectionObserver`` prepares once for a
/// key and scope (``InjectionObserver/bindingObserver(for:scope:)``), so that each construction
/// finds its span name, its timer and its labels without a lookup.
///
/// The injector keeps it with the binding for as long as the binding lives, asks it when each
/// construction starts, and gives what it answers — a ``ConstructionObserver``, the
/// construction's own state, such as its span — the construction's ending and, as `parent`, to
/// the constructions that run inside it. An observer then keeps no table of open constructions:
/// no hashing, no lock on the path of a request.
///
/// ```swift
/// final class TimedBinding: BindingObserver, ConstructionObserver {
///     let timer: Timer
///     init(timer: Timer) { self.timer = timer }
///
///     func constructionStarted(
///         _ construction: ObservedConstruction, parent: (any ConstructionObserver)?
///     ) -> any ConstructionObserver {
///         self  // nothing per construction: the ending records into the binding's timer
///     }
///     func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {
///         timer.record(duration: duration)
///     }
///     func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {}
/// }
/// ```
///
/// It is held by the injector's bindings: it must not hold the injector.
public protocol BindingObserver: AnyObject, Sendable {
    /// A construction of the binding starts, on the task that asked for it; answers what hears
    /// how it ends.
    ///
    /// ```swift
    /// func constructionStarted(
    ///     _ construction: ObservedConstruction, parent: (any ConstructionObserver)?
    /// ) -> any ConstructionObserver {
    ///     let context = (parent as? OpenSpan)?.span.context ?? .current ?? .topLevel
    ///     return OpenSpan(tracer.startSpan(name, context: context))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - construction: The construction: its identity, key, scope, parent's identity, start.
    ///   - parent: What this observer answered for the construction this one runs inside, if
    ///     that was a construction of a binding; `nil` for one asked for from outside any, or
    ///     from a startup (``ObservedConstruction/parentID`` names the startup).
    /// - Returns: What hears the construction's ending, and is handed, as `parent`, to the
    ///   constructions that run inside it. Return `self` when there is nothing per construction.
    func constructionStarted(
        _ construction: ObservedConstruction,
        parent: (any ConstructionObserver)?
    ) -> any ConstructionObserver
}
