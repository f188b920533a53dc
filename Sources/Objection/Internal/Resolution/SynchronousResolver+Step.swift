/// How a step is asked, which decides what it does when the value is not at hand.
@usableFromInline enum StepMode {
    /// By the asynchronous driver: a step names where the driver must wait (``DriverStop/wait(_:)``)
    /// or what it must build suspending (``DriverStop/build(_:)``); it never gives way.
    case mayWait(StepDriver)
    /// For a dependency of a graph built in place: a step builds without suspending, or gives
    /// way (``SynchronousStop/mustSuspend``).
    case inPlace
}

/// How the asynchronous driver asks a step (``StepMode/mayWait(_:)``): below which step, and where
/// the step writes what the driver must suspend for before it stops with
/// ``SynchronousStop/suspended``. The slot is the driver's, on its stack, valid during the step.
@usableFromInline struct StepDriver {
    /// The step the resolution runs below; `nil` for a caller outside any construction.
    let parent: ResolutionFrame?
    let suspension: UnsafeMutablePointer<DriverStop?>

    @usableFromInline init(parent: ResolutionFrame?, suspension: UnsafeMutablePointer<DriverStop?>) {
        self.parent = parent
        self.suspension = suspension
    }

    /// Writes `stop` to the slot; throw what it returns.
    func suspend(_ stop: consuming DriverStop) -> SynchronousStop {
        suspension.pointee = .some(stop)
        return .suspended
    }
}

extension SynchronousResolver {
    /// The one step under every resolution, and the one place that decides by lifetime:
    /// `binding`'s value, read or built without suspending, or a stop (see ``StepMode``).
    ///
    /// - A singleton, or a ``Lazy`` handle's shared value, is read when built. Otherwise a driver
    ///   joins or starts its one construction (`claimSingleton`); a graph built in
    ///   place gives way.
    /// - A scoped instance is read, or built in place in its request scope
    ///   (``scopedInPlace(_:producer:)``); a driver that cannot build it in place waits for the
    ///   task building it or builds it suspending (`scopedStep`).
    /// - A custom-scoped instance is read from its cache, or built suspending.
    /// - A transient is built in place when its graph allows (``transient(_:producer:for:)``),
    ///   else suspending.
    @inline(__always)
    @usableFromInline func step<T: Sendable>(_ binding: Binding, producer: Recipe<T>, _ mode: StepMode)
        throws(SynchronousStop) -> T
    {
        switch binding.lifetime.kind {
        case .singleton, .handle:
            try refuseWithoutArguments(binding, producer: producer, mode)
            if let built = binding.lifetime.cell?.builtBox() { return CellValue.unwrap(built, as: T.self) }
            guard case .mayWait(let driver) = mode else { throw .mustSuspend }
            return try claimSingleton(binding, producer: producer, for: driver)
        case .scoped:
            try refuseWithoutArguments(binding, producer: producer, mode)
            guard case .mayWait(let driver) = mode else { return try scopedInPlace(binding, producer: producer) }
            return try scopedStep(binding, producer: producer, for: driver)
        case .custom:
            try refuseWithoutArguments(binding, producer: producer, mode)
            guard case .mayWait(let driver) = mode else { throw .mustSuspend }
            return try customStep(binding, producer: producer, for: driver)
        case .refreshable:
            guard case .mayWait(let driver) = mode else { throw .mustSuspend }
            return try refreshableStep(binding, producer: producer, for: driver)
        case .transient:
            guard case .mayWait(let driver) = mode else {
                guard producer.kind == .instance || binding.isSynchronous else { throw .mustSuspend }
                return try producer.synchronous(self, binding)
            }
            return try transient(binding, producer: producer, for: driver)
        }
    }

    /// Refuses a call without runtime arguments of a cached binding that cannot build without
    /// them (its own recipe, or the one its aliases end at), built or not: its cache may hold an
    /// instance another call's arguments built, which such a call would read only once it is
    /// built (``InjectionError/Code/argumentMismatch``, as the recipe answers when nothing is
    /// built). A call with arguments steps with the recipe they were applied to, not the
    /// binding's own. A transient's recipe refuses such a call by itself.
    private func refuseWithoutArguments<T: Sendable>(_ binding: Binding, producer: Recipe<T>, _ mode: StepMode)
        throws(SynchronousStop)
    {
        guard binding.lifetime.needsArguments, producer === binding.producer else { return }
        guard case .mayWait(let driver) = mode else { throw .mustSuspend }
        let types = injector.argumentTypes(of: binding)
        throw .failed(
            InjectionError.argumentMismatch(
                binding.key, expected: types, given: [], path: (driver.parent?.keys ?? []) + [binding.key]))
    }

    /// A transient for a driver: an instance, a graph the plan allows to build in
    /// place, or a provider closure that does not suspend; else a stop to build it suspending.
    func transient<T: Sendable>(
        _ binding: Binding,
        producer: Recipe<T>,
        for driver: StepDriver
    ) throws(SynchronousStop) -> T {
        let parent = driver.parent
        // An instance's recipe returns its value and never stops.
        if producer.kind == .instance, producer.isSynchronous { return try producer.synchronous(self, binding) }
        if injector.canBuildSynchronously(binding, below: parent),
            !binding.synchronousReadsScoped || !injector.isCaptive(below: parent)
        {
            do {
                return try producer.synchronous(self, binding)
            } catch .mustSuspend {
                // Something the plan did not foresee: built suspending below.
            }
        }
        if let provider = producer.synchronousProvider {
            // A provider that does not suspend cannot resolve anything while it runs (the
            // Resolver's methods suspend): no cycle can pass through its step and nothing nests
            // below it, so it needs no frame, only the depth check. A resolver it keeps starts
            // new paths, as any resolver kept past its provider's return does.
            do {
                _ = try ResolutionFrame.depth(of: binding, below: parent, limit: injector.maxResolutionDepth)
                return try provider(Resolver(injector: injector, frame: nil))
            } catch {
                throw .failed(error)
            }
        }
        throw driver.suspend(.run(try injector.enterStep(binding, below: parent)))
    }
}
