//! A game run under supervision: a panic in one game ends that game alone, and its connection is told.

use thiserror::Error;

use crate::serve::door::GameEnd;

/// Why a game stopped before its end.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GameFailed {
    /// It panicked, with the panic's message.
    #[error("{0}")]
    Panicked(String),
    /// Its task was stopped from outside (the runtime going away), as the runtime says.
    #[error("{0}")]
    Stopped(String),
}

/// Runs a game in a task of its own and hands `after` how it went: its end, or the panic that stopped it.
/// A panic ends that game alone; the connection, the server and every other game go on.
pub async fn supervise<F, A, Fut>(game: F, after: A)
where
    F: Future<Output = GameEnd> + Send + 'static,
    A: FnOnce(Result<GameEnd, GameFailed>) -> Fut,
    Fut: Future<Output = ()>,
{
    let outcome = match tokio::spawn(game).await {
        Ok(ending) => Ok(ending),
        Err(e) => Err(match e.try_into_panic() {
            Ok(panic) => GameFailed::Panicked(
                panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".to_string()),
            ),
            Err(e) => GameFailed::Stopped(e.to_string()),
        }),
    };
    after(outcome).await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::SessionEnd;
    use tokio::sync::mpsc;

    #[tokio::test]
    async fn a_panicking_game_is_reported_and_the_others_go_on() {
        let (told, mut heard) = mpsc::unbounded_channel();
        let crash_told = told.clone();
        let crashing = tokio::spawn(supervise(
            async { panic!("a bug in one game") },
            move |outcome| async move {
                let _ = crash_told.send(outcome);
            },
        ));
        let fine = tokio::spawn(supervise(
            async { GameEnd::Session(SessionEnd::Quit) },
            move |outcome| async move {
                let _ = told.send(outcome);
            },
        ));
        crashing
            .await
            .expect("the supervisor itself does not panic");
        fine.await
            .expect("the other game's supervisor is untouched");
        let mut outcomes = vec![
            heard.recv().await.expect("told"),
            heard.recv().await.expect("told"),
        ];
        outcomes.sort_by_key(|o| o.is_ok());
        assert_eq!(
            outcomes,
            vec![
                Err(GameFailed::Panicked("a bug in one game".to_string())),
                Ok(GameEnd::Session(SessionEnd::Quit))
            ]
        );
    }
}
