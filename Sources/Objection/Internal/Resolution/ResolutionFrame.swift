import Synchronization

/// One step of a resolution in progress: the binding being built and the step that asked for it.
/// Only the top of an observed startup builds no binding (see ``startup(_:)``).
///
/// Frames form a parent-linked chain from the outermost `get` to the current one. The chain is
/// how the injector names the path in errors, detects a key that needs itself, and bounds the
/// depth. It travels explicitly inside ``Resolver`` (cheap), and is also published as a task-local
/// while an opaque provider runs, so that code calling the injector directly — from `async let`,
/// a task group or a captured injector — stays on the same path.
@usableFromInline final class ResolutionFrame: Sendable {
    /// The binding built at this step; `nil` at the top of an observed startup.
    let binding: Binding?
    let parent: ResolutionFrame?
    let depth: Int
    /// The innermost singleton construction this step runs inside, if any: the node that waits
    /// when this step waits on another construction.
    let construction: Construction?
    /// The singleton built at this step or at the nearest ancestor that builds one, if any: what
    /// a scoped key resolved here would be captive of (see `InjectorActor.isCaptive(below:)`).
    let enclosingSingleton: Binding?
    /// The innermost observed construction this step is or runs inside, or the observed startup
    /// that asked for it; `nil` for none. Set only for an observer of successes (see
    /// `InjectorActor.observingConstruction(of:at:_:)`); otherwise `nil` everywhere, copied from
    /// step to step with the other fields.
    @usableFromInline let observedParent: ObservedParent?
    private let active = Atomic<Bool>(true)

    /// The frame of the provider running in this task, if any.
    @TaskLocal static var current: ResolutionFrame?

    private init(
        binding: Binding?,
        parent: ResolutionFrame?,
        depth: Int,
        construction: Construction?,
        observedParent: ObservedParent?
    ) {
        self.binding = binding
        self.parent = parent
        self.depth = depth
        self.construction = construction
        self.observedParent = observedParent
        self.enclosingSingleton = binding?.lifetime.isInjectorWide == true ? binding : parent?.enclosingSingleton
    }

    /// Starts a step for `binding` below `parent`, refusing one that would close a cycle or go
    /// deeper than `limit`.
    ///
    /// Each step looks for its binding among its ``nearbySteps`` nearest ancestors, and among all
    /// of them at every power-of-two depth and at the depth limit: a cycle is found within twice
    /// its length from where it starts, always before the limit is reported, and a chain of `n`
    /// steps costs O(n) to check, not O(n²) — a limit raised to 100,000 stays usable.
    static func enter(
        _ binding: Binding,
        below parent: ResolutionFrame?,
        limit: Int,
        construction: Construction? = nil
    ) throws(InjectionError) -> ResolutionFrame {
        let depth = (parent?.depth ?? 0) + 1
        if let parent {
            let checksAll = depth & (depth - 1) == 0 || depth > limit
            if parent.contains(binding, within: checksAll ? Int.max : nearbySteps) {
                throw cycle(closedBy: binding, below: parent)
            }
        }
        if depth > limit { throw depthLimitExceeded(binding, below: parent, limit: limit) }
        return ResolutionFrame(
            binding: binding,
            parent: parent,
            depth: depth,
            construction: construction ?? parent?.construction,
            observedParent: parent?.observedParent
        )
    }

    /// How many of a step's nearest ancestors ``enter(_:below:limit:construction:)`` always
    /// checks for a cycle.
    static let nearbySteps = 64

    /// The depth of a step for `binding` below `parent`, refusing one deeper than `limit`.
    static func depth(
        of binding: Binding,
        below parent: ResolutionFrame?,
        limit: Int
    ) throws(InjectionError) -> Int {
        let depth = (parent?.depth ?? 0) + 1
        if depth > limit { throw depthLimitExceeded(binding, below: parent, limit: limit) }
        return depth
    }

    private static func depthLimitExceeded(
        _ binding: Binding,
        below parent: ResolutionFrame?,
        limit: Int
    ) -> InjectionError {
        InjectionError.depthLimitExceeded(limit: limit, path: (parent?.keys ?? []) + [binding.key])
    }

    /// The constructions this step runs inside — its own and those of the steps it descends from,
    /// across tasks — innermost first: what a shutdown called from here must not wait for, since
    /// they wait for it.
    var enclosingConstructions: [Construction] {
        var constructions: [Construction] = []
        var step: ResolutionFrame? = self
        while let frame = step {
            // A step inherits its parent's construction: consecutive repeats are one.
            if let construction = frame.construction, constructions.last !== construction {
                constructions.append(construction)
            }
            step = frame.parent
        }
        return constructions
    }

    /// Whether `binding` is built at this step or at any step it descends from.
    func isBuilding(_ binding: Binding) -> Bool {
        contains(binding, within: .max)
    }

    /// Whether `binding` is built at this step or at one of its `within - 1` nearest ancestors.
    private func contains(_ binding: Binding, within steps: Int) -> Bool {
        var step: ResolutionFrame? = self
        var remaining = steps
        while let frame = step, remaining > 0 {
            if frame.binding === binding { return true }
            step = frame.parent
            remaining -= 1
        }
        return false
    }

    /// The error for `binding` asked for again below `parent`, which builds it or descends from
    /// the step that does.
    private static func cycle(closedBy binding: Binding, below parent: ResolutionFrame) -> InjectionError {
        var cycle = [binding.key]
        var step: ResolutionFrame? = parent
        while let current = step, current.binding !== binding {
            if let key = current.key { cycle.append(key) }
            step = current.parent
        }
        cycle.append(binding.key)
        cycle.reverse()
        return InjectionError.circularDependency(cycle: cycle, path: parent.keys + [binding.key])
    }

    /// The top of a startup's resolutions, when an observer hears it: it builds nothing and adds
    /// no depth, and names the startup `id` as what asked for each singleton below it.
    static func startup(_ id: ObservedConstruction.ID) -> ResolutionFrame {
        ResolutionFrame(
            binding: nil, parent: nil, depth: 0, construction: nil,
            observedParent: ObservedParent(id: id, observer: nil))
    }

    /// The same step, now the observed construction `observed`: steps below it name it as their
    /// parent.
    func observed(as observed: ObservedParent) -> ResolutionFrame {
        ResolutionFrame(
            binding: binding,
            parent: parent,
            depth: depth,
            construction: construction,
            observedParent: observed
        )
    }

    /// The key of the step: its binding's.
    private var key: BindingKey? {
        binding?.key
    }

    /// The keys of the steps from `construction`'s own step down to this one, both included:
    /// what a wait of this step, inside `construction`, passes through (``WaitGraph``).
    func keys(inside construction: Construction) -> [BindingKey] {
        var keys: [BindingKey] = []
        var step: ResolutionFrame? = self
        while let frame = step, frame.construction === construction {
            if let key = frame.key { keys.append(key) }
            step = frame.parent
        }
        return keys.reversed()
    }

    /// The same step, now running inside `construction`.
    func inside(_ construction: Construction) -> ResolutionFrame {
        ResolutionFrame(
            binding: binding,
            parent: parent,
            depth: depth,
            construction: construction,
            observedParent: observedParent
        )
    }

    /// The keys from the outermost request to this step.
    var keys: [BindingKey] {
        var keys: [BindingKey] = []
        var frame: ResolutionFrame? = self
        while let current = frame {
            if let key = current.key { keys.append(key) }
            frame = current.parent
        }
        return keys.reversed()
    }

    /// Marks the step as done, so a task that outlives it (an unstructured `Task` the provider
    /// started) no longer counts as part of this resolution.
    func finish() {
        active.store(false, ordering: .releasing)
    }

    /// Whether the step is still running.
    var isActive: Bool { active.load(ordering: .acquiring) }

    /// The current task's frame, if its step is still running.
    @usableFromInline static var active: ResolutionFrame? {
        guard let frame = current, frame.active.load(ordering: .acquiring) else { return nil }
        return frame
    }
}
