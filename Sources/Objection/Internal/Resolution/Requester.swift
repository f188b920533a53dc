/// Who asked for a resolution: the step whose provider resolves through its ``Resolver``, or,
/// for a `get` called on the injector itself, whichever step runs in the current task — a
/// provider that called the injector directly — read from the task only when it is needed.
@usableFromInline
enum Requester: Sendable {
    /// A known step; `nil` for a resolution that starts a new path.
    case step(ResolutionFrame?)
    /// The step running in the current task, if any.
    case currentTask

    /// The requesting step, if there is one.
    @inlinable
    var frame: ResolutionFrame? {
        switch self {
        case .step(let frame): frame
        case .currentTask: ResolutionFrame.active
        }
    }
}
