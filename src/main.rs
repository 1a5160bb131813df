fn main() {
    let pos: crowned::rules::Position = crowned::rules::Position::start();
    for d in 12..=12 {
        let t = std::time::Instant::now();
        let n = crowned::rules::perft(&pos, d, crowned::rules::Duplicates::Keep);
        println!("perft {d} {n} {:?}", t.elapsed());
    }
}
