/// A construction the observer has heard start, and what hears how it ends.
struct StartedConstruction: Sendable {
    let construction: ObservedConstruction
    let observer: any ConstructionObserver
}
