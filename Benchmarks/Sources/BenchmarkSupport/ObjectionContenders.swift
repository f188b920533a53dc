import Objection

/// The graphs bound for this library: autowired initializers, or closure providers.
public enum ObjectionGraphs {
    public struct Autowired: Module {
        public init() {}

        public func configure(_ binder: Binder) {
            binder.bind(D.self).to(D.init)
            binder.bind(E.self).to(E.init)
            binder.bind(F.self).to(F.init)
            binder.bind(G.self).to(G.init)
            binder.bind(A.self).to(A.init)
            binder.bind(B.self).to(B.init)
            binder.bind(C.self).to(C.init)
            binder.bind(Service.self).to(Service.init)
            binder.bind(Engine.self).to(Engine.init).asSingleton()
        }
    }

    public struct Closures: Module {
        public init() {}

        public func configure(_ binder: Binder) {
            binder.bind(D.self).to { _ in D() }
            binder.bind(E.self).to { _ in E() }
            binder.bind(F.self).to { _ in F() }
            binder.bind(G.self).to { _ in G() }
            binder.bind(A.self).to { r in try await A(d: r.get()) }
            binder.bind(B.self).to { r in try await B(e: r.get(), f: r.get()) }
            binder.bind(C.self).to { r in try await C(g: r.get()) }
            binder.bind(Service.self).to { r in try await Service(a: r.get(), b: r.get(), c: r.get()) }
        }
    }

    /// The deep graph: named `Node` bindings, `""` the root.
    public struct Deep: Module {
        public init() {}

        public func configure(_ binder: Binder) {
            for child in 0..<DeepGraph.width {
                let name = DeepGraph.name("", child)
                for leaf in 0..<DeepGraph.width {
                    binder.bind(Node.self, named: DeepGraph.name(name, leaf)).to { _ in Node(children: []) }
                }
                binder.bind(Node.self, named: name).to { r in
                    var children: [Node] = []
                    for leaf in 0..<DeepGraph.width {
                        children.append(try await r.get(Node.self, named: DeepGraph.name(name, leaf)))
                    }
                    return Node(children: children)
                }
            }
            binder.bind(Node.self, named: "").to { r in
                var children: [Node] = []
                for child in 0..<DeepGraph.width {
                    children.append(try await r.get(Node.self, named: DeepGraph.name("", child)))
                }
                return Node(children: children)
            }
        }
    }

    /// The per-request graph: singletons, scoped values with a disposal, transients.
    public struct Requests: Module {
        public init() {}

        public func configure(_ binder: Binder) {
            binder.bind(Database.self).to(Database.init).asSingleton()
            binder.bind(Cache.self).to(Cache.init).asSingleton()
            binder.bind(Metrics.self).to(Metrics.init).asSingleton()
            binder.bind(Settings.self).to(Settings.init).asSingleton()
            binder.bind(Clock.self).to(Clock.init).asSingleton()
            binder.bind(RequestContext.self).to(RequestContext.init).inScope(.scoped)
            binder.bind(RequestLogger.self).to(RequestLogger.init).inScope(.scoped)
            binder.bind(UnitOfWork.self).to(UnitOfWork.init).inScope(.scoped).onDispose { $0.commit() }
            binder.bind(Validator.self).to(Validator.init)
            binder.bind(Serializer.self).to(Serializer.init)
            binder.bind(Handler.self).to(Handler.init)
        }
    }

    /// Applied after ``Requests``: `RequestContext` becomes a value each request supplies.
    public struct RequestValuesDeclared: Module {
        public init() {}

        public func configure(_ binder: Binder) {
            binder.bind(RequestContext.self).suppliedByScope()
        }
    }

    /// One request's own values.
    public struct RequestValues: Module {
        public let context: RequestContext

        public init(context: RequestContext) { self.context = context }

        public func configure(_ binder: Binder) {
            binder.bind(RequestContext.self).toInstance(context)
        }
    }

    /// A singleton whose provider takes `latency`, for the stampede case.
    public struct Slow: Module {
        public let latency: Duration

        public init(latency: Duration) { self.latency = latency }

        public func configure(_ binder: Binder) {
            binder.bind(Engine.self).to { [latency] _ in
                try await Task.sleep(for: latency)
                return Engine()
            }.asSingleton()
        }
    }

    /// `count` bindings, for the build-cost case.
    public struct Sized: Module {
        public let count: Int

        public init(count: Int) { self.count = count }

        public func configure(_ binder: Binder) {
            for index in 0..<count {
                binder.bind(Int.self, named: String(index)).to { _ in index }
            }
        }
    }
}
