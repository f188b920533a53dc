#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A queue whose `pop()` blocks the calling thread until an element arrives: the hand-over
/// between a test and a thread it blocks on purpose.
final class BlockingQueue<Element: Sendable>: @unchecked Sendable {
    // Allocated once and never moved, as pthread objects require; guarded by `mutex`.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var elements: [Element] = []

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func push(_ element: Element) {
        pthread_mutex_lock(mutex)
        elements.append(element)
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Blocks the calling thread until an element is pushed, then takes the oldest.
    func pop() -> Element {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while elements.isEmpty { pthread_cond_wait(condition, mutex) }
        return elements.removeFirst()
    }
}

/// A one-shot latch for synchronous code: `wait()` blocks the calling thread until `open()`.
/// Only for code running on a ``DedicatedThreadExecutor``, never on the cooperative pool.
final class Latch: Sendable {
    private let queue = BlockingQueue<Void>()

    func open() { queue.push(()) }

    func wait() { queue.pop() }
}

/// A task executor that runs its jobs on one thread of its own, outside the cooperative pool, so
/// a test can block that thread inside synchronous code — an initializer waiting on a ``Latch``
/// — while the tasks it waits for run on the pool, whatever the pool's width. The thread lives
/// as long as the test process.
final class DedicatedThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let jobs = BlockingQueue<UnownedJob>()
    /// The thread's scheduling niceness on Linux (0 normal, 19 lowest); ignored elsewhere.
    private let niceness: Int32

    /// Starts the executor's thread; a positive `niceness` lets every other thread of the process
    /// run first when the cores are busy.
    init(niceness: Int32 = 0) {
        self.niceness = niceness
        let context = Unmanaged.passRetained(self).toOpaque()
        #if canImport(Darwin)
            var thread: pthread_t?
            pthread_create(&thread, nil, { DedicatedThreadExecutor.run(context: $0) }, context)
            if let thread { pthread_detach(thread) }
        #else
            var thread = pthread_t()
            pthread_create(&thread, nil, { $0.flatMap(DedicatedThreadExecutor.run(context:)) }, context)
            pthread_detach(thread)
        #endif
    }

    func enqueue(_ job: consuming ExecutorJob) {
        jobs.push(UnownedJob(job))
    }

    private static func run(context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        let executor = Unmanaged<DedicatedThreadExecutor>.fromOpaque(context).takeUnretainedValue()
        #if os(Linux)
            // On Linux each thread has its own niceness; `who` 0 is the calling thread.
            if executor.niceness != 0 {
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, executor.niceness)
            }
        #endif
        while true { executor.jobs.pop().runSynchronously(on: executor.asUnownedTaskExecutor()) }
    }
}
