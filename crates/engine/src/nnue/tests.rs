use super::*;
use crate::rng::Rng;
use crowned_rules::{
    Color, English, International, Piece, Position, RuleSet, Russian, Square, parse_fen,
};

/// A network for English draughts' board with random weights in the ranges a trained one has.
fn random_network(seed: u64) -> Network {
    random_network_on(NetworkFamily::English, seed)
}

/// A network for `board` with random weights in the ranges a trained one has.
fn random_network_on(board: NetworkFamily, seed: u64) -> Network {
    let mut rng = Rng::new(seed);
    let mut small = |spread: i32| rng.below(2 * spread as usize + 1) as i32 - spread;
    let mut net = Network::zeroed(board);
    net.first
        .iter_mut()
        .flatten()
        .for_each(|w| *w = small(60) as i16);
    net.first_bias
        .iter_mut()
        .for_each(|w| *w = small(60) as i16);
    net.second
        .iter_mut()
        .flatten()
        .for_each(|w| *w = small(127) as i8);
    net.second_bias.iter_mut().for_each(|w| *w = small(20_000));
    net.output.iter_mut().for_each(|w| *w = small(2000));
    net.output_bias = small(50_000);
    net
}

/// Positions along a pseudo-random English game from the start, captures and crownings included.
fn walk(seed: u64, plies: usize) -> Vec<Position<English>> {
    walk_of::<English>(seed, plies)
}

/// Positions along a pseudo-random game of `R` from the start, captures and crownings included.
fn walk_of<R: RuleSet>(seed: u64, plies: usize) -> Vec<Position<R>> {
    let mut rng = Rng::new(seed);
    let mut pos: Position<R> = Position::start();
    let mut out = vec![pos];
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos.play(&moves[rng.below(moves.len())]);
        out.push(pos);
    }
    out
}

/// The same position with the board turned and the colours swapped.
fn mirror<R: RuleSet>(pos: &Position<R>) -> Position<R> {
    let last = R::GEOMETRY.squares() - 1;
    let mut out: Position<R> = Position::empty(pos.side_to_move().opponent());
    for (square, piece) in pos.pieces() {
        let turned = Square::from_index(last - square.index());
        out.set_piece(turned, Some(Piece::new(piece.color.opponent(), piece.role)));
    }
    out
}

fn leaked(net: Network) -> &'static Network {
    Box::leak(Box::new(net))
}

#[test]
fn the_builtin_networks_are_there_and_read_back_byte_for_byte() {
    // English's and international draughts' files were written before the family was (version 2): they read
    // by their inputs, and are written back naming it; Russian draughts' names its family.
    for family in NetworkFamily::ALL {
        let net = builtin(family).expect("the network compiled in reads");
        assert_eq!(net.family(), family);
        assert_eq!(Network::from_bytes(&net.to_bytes()).as_ref(), Ok(net));
        assert_ne!(
            net,
            &Network::zeroed(family),
            "a trained network, not zeros"
        );
    }
}

#[test]
fn a_network_knows_its_family_and_is_refused_for_another() {
    for family in NetworkFamily::ALL {
        let net = random_network_on(family, 11);
        let bytes = net.to_bytes();
        assert_eq!(Network::for_family(&bytes, family).as_ref(), Ok(&net));
        assert_eq!(Network::from_bytes(&bytes).map(|n| n.family()), Ok(family));
        for other in NetworkFamily::ALL.into_iter().filter(|&f| f != family) {
            assert_eq!(
                Network::for_family(&bytes, other),
                Err(NetworkError::WrongFamily {
                    expected: other,
                    found: family
                })
            );
        }
    }
    // English's and Russian draughts' boards are the same: only the family written in the file tells them apart.
    let english = random_network_on(NetworkFamily::English, 1).to_bytes();
    let russian = random_network_on(NetworkFamily::Russian, 1).to_bytes();
    assert_eq!(english.len(), russian.len());
    // The 10x10 board's file is longer by the columns of its extra squares, and nothing else.
    let ten = random_network_on(NetworkFamily::International, 1).to_bytes();
    assert_eq!(ten.len() - english.len(), 4 * (50 - 32) * HIDDEN * 2);
    // A family this build does not know is refused, whatever the dimensions.
    let mut unknown = english.clone();
    unknown[12] = 9;
    assert_eq!(
        Network::from_bytes(&unknown),
        Err(NetworkError::UnknownFamily(9))
    );
}

#[test]
fn a_network_file_round_trips_and_damage_is_refused() {
    let net = random_network(3);
    let bytes = net.to_bytes();
    assert_eq!(Network::from_bytes(&bytes), Ok(net));
    assert_eq!(Network::from_bytes(b""), Err(NetworkError::NotANetwork));
    assert_eq!(
        Network::from_bytes(b"CRWNEGDB and then some more bytes"),
        Err(NetworkError::NotANetwork)
    );
    let mut version = bytes.clone();
    version[8] = 9;
    assert_eq!(
        Network::from_bytes(&version),
        Err(NetworkError::NotANetwork)
    );
    let mut dims = bytes.clone();
    dims[20] = 64;
    assert!(matches!(
        Network::from_bytes(&dims),
        Err(NetworkError::Dimensions { hidden: 64, .. })
    ));
    for cut in [bytes.len() - 1, bytes.len() / 2, 30] {
        assert!(matches!(
            Network::from_bytes(&bytes[..cut]),
            Err(NetworkError::Length { .. })
        ));
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        Network::from_bytes(&longer),
        Err(NetworkError::Length { .. })
    ));
    // Every single flipped bit past the header is caught.
    for at in (28..bytes.len()).step_by(997) {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x10;
        assert_eq!(
            Network::from_bytes(&damaged),
            Err(NetworkError::Checksum),
            "byte {at}"
        );
    }
}

/// The first layer's sums for `pieces` the plainest way: each view's bias and its features' columns, added one by
/// one in 32 bits and brought back to 16 (as the wrapping arithmetic of the fast code must give).
fn plain_sums(net: &Network, pieces: &Pieces) -> Accumulator {
    let mut views = [[0i16; HIDDEN]; 2];
    for view in [Color::Black, Color::White] {
        for (h, sum) in views[view.index()].iter_mut().enumerate() {
            let total: i32 = i32::from(net.first_bias[h])
                + pieces
                    .features(view, net.family().squares())
                    .map(|f| i32::from(net.first[f][h]))
                    .sum::<i32>();
            *sum = total as i16;
        }
    }
    Accumulator { views }
}

#[test]
fn every_cpu_s_sums_equal_the_plain_ones() {
    sums_agree::<English>(NetworkFamily::English);
    sums_agree::<International>(NetworkFamily::International);
    sums_agree::<Russian>(NetworkFamily::Russian);
}

fn sums_agree<R: RuleSet>(board: NetworkFamily) {
    let net = random_network_on(board, 29);
    for cpu in Cpu::available() {
        for seed in 0..10 {
            let positions = walk_of::<R>(seed, 150);
            let mut acc = Accumulator::new_on(cpu, &net, &Pieces::of(&positions[0]));
            assert_eq!(acc, plain_sums(&net, &Pieces::of(&positions[0])), "{cpu:?}");
            for pair in positions.windows(2) {
                let (from, to) = (Pieces::of(&pair[0]), Pieces::of(&pair[1]));
                let mut copy = Accumulator::new_on(cpu, &net, &Pieces::default());
                copy.update_on(cpu, &net, &from, &to, Some(&acc));
                acc.update_on(cpu, &net, &from, &to, None);
                assert_eq!(acc, plain_sums(&net, &to), "{cpu:?}, seed {seed}");
                assert_eq!(copy, acc, "{cpu:?}, seed {seed}");
            }
        }
        // A full board, from nothing and from an empty one: the most columns one update applies.
        let quarter = board.squares() / 4;
        let kinds: [u64; 4] = std::array::from_fn(|k| {
            let first = k * quarter;
            let last = if k == 3 {
                board.squares()
            } else {
                first + quarter
            };
            ((1u64 << last) - 1) & !((1u64 << first) - 1)
        });
        let pieces = Pieces(kinds);
        assert_eq!(pieces.count() as usize, board.squares());
        assert_eq!(
            Accumulator::new_on(cpu, &net, &pieces),
            plain_sums(&net, &pieces)
        );
    }
}

#[test]
fn updated_accumulators_equal_ones_built_from_nothing() {
    let net = random_network(5);
    for seed in 0..20 {
        let positions = walk(seed, 150);
        let mut acc = Accumulator::new(&net, &Pieces::of(&positions[0]));
        for pair in positions.windows(2) {
            let (from, to) = (Pieces::of(&pair[0]), Pieces::of(&pair[1]));
            acc.update(&net, &from, &to);
            assert_eq!(acc, Accumulator::new(&net, &to), "seed {seed}");
        }
        // From any position to any other, not only along a move.
        let (first, last) = (&positions[0], &positions[positions.len() - 1]);
        let mut jump = Accumulator::new(&net, &Pieces::of(last));
        jump.update(&net, &Pieces::of(last), &Pieces::of(first));
        assert_eq!(jump, Accumulator::new(&net, &Pieces::of(first)));
    }
}

#[test]
fn the_cache_scores_every_position_as_a_fresh_evaluation_does() {
    cache_agrees::<English>(NetworkFamily::English);
    cache_agrees::<International>(NetworkFamily::International);
    cache_agrees::<Russian>(NetworkFamily::Russian);
}

fn cache_agrees<R: RuleSet>(board: NetworkFamily) {
    let net = leaked(random_network_on(board, 7));
    let fresh = |pos: &Position<R>| {
        net.evaluate_portable(&plain_sums(net, &Pieces::of(pos)), pos.side_to_move())
    };
    for cpu in Cpu::available() {
        let mut cache = NetCache::on(cpu, net, 64);
        cache_agrees_on(&mut cache, fresh);
    }
}

fn cache_agrees_on<R: RuleSet>(cache: &mut NetCache, fresh: impl Fn(&Position<R>) -> i32) {
    for seed in 0..10 {
        // As a search visits them: down a line, and at each step every child (siblings of one another).
        for (ply, pos) in walk_of::<R>(seed, 60).iter().enumerate() {
            assert_eq!(
                cache.evaluate(pos, ply),
                fresh(pos),
                "seed {seed}, ply {ply}"
            );
            for m in pos.legal_moves() {
                let child = pos.play(&m);
                assert_eq!(cache.evaluate(&child, ply + 1), fresh(&child));
            }
        }
    }
    let (refreshes, updates) = cache.counts();
    assert!(
        updates > 20 * refreshes,
        "{updates} updates, {refreshes} refreshes"
    );
}

#[test]
fn both_colours_see_the_same_position_the_same_way() {
    for net in [
        leaked(random_network(13)),
        builtin(NetworkFamily::English).expect("builtin"),
    ] {
        colours_agree(net, &walk(17, 200));
    }
    colours_agree(
        leaked(random_network_on(NetworkFamily::International, 13)),
        &walk_of::<International>(17, 200),
    );
}

fn colours_agree<R: RuleSet>(net: &Network, positions: &[Position<R>]) {
    for pos in positions {
        let turned = mirror(pos);
        let score = |p: &Position<R>| {
            net.evaluate(&Accumulator::new(net, &Pieces::of(p)), p.side_to_move())
        };
        assert_eq!(score(pos), score(&turned));
    }
}

#[test]
fn the_vector_paths_agree_with_the_portable_one() {
    let net = random_network(19);
    let mut rng = Rng::new(31);
    let mut accumulators: Vec<(Accumulator, Color)> = walk(23, 150)
        .iter()
        .map(|pos| (Accumulator::new(&net, &Pieces::of(pos)), pos.side_to_move()))
        .collect();
    // Sums anywhere in 16 bits (far past both ends of the clip), and every sum at each extreme.
    for _ in 0..200 {
        let mut acc = accumulators[0].0.clone();
        for sum in acc.views.iter_mut().flatten() {
            *sum = (rng.below(1 << 16) as i32 - (1 << 15)) as i16;
        }
        accumulators.push((acc, Color::White));
    }
    for extreme in [i16::MIN, -1, 0, 127, 128, i16::MAX] {
        let mut acc = accumulators[0].0.clone();
        acc.views.iter_mut().flatten().for_each(|s| *s = extreme);
        accumulators.push((acc, Color::Black));
    }
    let mut extremes = random_network(37);
    extremes
        .second
        .iter_mut()
        .flatten()
        .for_each(|w| *w = i8::MIN);
    let mut top = random_network(41);
    top.second.iter_mut().flatten().for_each(|w| *w = i8::MAX);
    for net in [&net, &extremes, &top] {
        for (acc, side) in &accumulators {
            let portable = net.evaluate_portable(acc, *side);
            for cpu in Cpu::available() {
                assert_eq!(net.evaluate_on(cpu, acc, *side), portable, "{cpu:?}");
            }
        }
    }
}

#[test]
fn features_are_each_piece_once_in_each_view() {
    let pos: Position<English> = parse_fen("W:W18,K27,32:B1,K10,12").expect("fen");
    let pieces = Pieces::of(&pos);
    assert_eq!(pieces.count(), 6);
    let black: Vec<usize> = pieces.features(Color::Black, 32).collect();
    let white: Vec<usize> = pieces.features(Color::White, 32).collect();
    // Black's view: its men on 1 and 12, its king on 10, White's men on 18 and 32, its king on 27.
    assert_eq!(black, vec![0, 11, 32 + 9, 64 + 17, 64 + 31, 96 + 26]);
    // White's view: the board turned (square s is 33 - s), White's pieces first.
    let mut expected = vec![
        64 + 31,
        64 + 31 - 11,
        96 + 31 - 9,
        31 - 17,
        31 - 31,
        32 + 31 - 26,
    ];
    expected.sort_unstable();
    let mut white_sorted = white.clone();
    white_sorted.sort_unstable();
    assert_eq!(white_sorted, expected);
    assert_eq!(feature(Color::White, 0, 0, 32), 64 + 31);
    // On 50 squares: White's man on square 46 (index 45) is its own man on its square 5 (index 4).
    assert_eq!(feature(Color::White, 2, 45, 50), 4);
    assert_eq!(feature(Color::Black, 3, 49, 50), 199);
}

/// The compiled-in network of `family` scores the start of `R` (White to move in `start`, the white men
/// `white`, the black `black`) near level and a black man fewer well in White's favour, whoever is to move, and
/// sees both colours alike along a random game.
fn knows_material<R: RuleSet>(family: NetworkFamily, white: &str, black: &str, one_fewer: &str) {
    let net = builtin(family).expect("builtin");
    let score = |fen: &str| {
        let pos: Position<R> = parse_fen(fen).expect("fen");
        net.evaluate(
            &Accumulator::new(net, &Pieces::of(&pos)),
            pos.side_to_move(),
        )
    };
    let start = score(&format!("W:W{white}:B{black}"));
    assert!(start.abs() < 40, "the start scores {start}");
    assert!(score(&format!("W:W{white}:B{one_fewer}")) - start > 40);
    assert!(score(&format!("B:W{white}:B{one_fewer}")) < -40);
    colours_agree(net, &walk_of::<R>(3, 200));
}

#[test]
fn the_builtin_ten_by_ten_network_knows_material() {
    knows_material::<International>(NetworkFamily::International, "31-50", "1-20", "1-19");
}

#[test]
fn the_builtin_russian_network_knows_material() {
    knows_material::<Russian>(NetworkFamily::Russian, "21-32", "1-12", "1-11");
}

#[test]
fn the_builtin_network_knows_material() {
    let net = builtin(NetworkFamily::English).expect("builtin");
    let score = |fen: &str| {
        let pos: Position<English> = parse_fen(fen).expect("fen");
        net.evaluate(
            &Accumulator::new(net, &Pieces::of(&pos)),
            pos.side_to_move(),
        )
    };
    let start = score("B:W21-32:B1-12");
    assert!(start.abs() < 40, "the start scores {start}");
    // A man up in the opening, either side to move.
    assert!(score("B:W22-32:B1-12") - start > 40);
    assert!(score("W:W22-32:B1-12") < -40);
}
