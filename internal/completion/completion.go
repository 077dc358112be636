// Package completion is arena's shell completion: the scripts bash, zsh
// and fish load, which call arena back with the flag urfave/cli answers
// with the words that may come next.
package completion

import (
	"errors"

	"github.com/urfave/cli/v2"
)

// Flag is the hidden flag urfave/cli answers with the words
// that may come next (App.EnableBashCompletion); the scripts below call
// arena with it.
const Flag = "--generate-bash-completion"

// The bash and zsh scripts are urfave/cli's (autocomplete/), for the
// program arena.
const bash = `# arena completion for bash: source <(arena completion bash)
_arena_complete() {
  local cur words
  COMPREPLY=()
  cur="${COMP_WORDS[COMP_CWORD]}"
  words=("${COMP_WORDS[@]:0:$COMP_CWORD}")
  if [[ "$cur" == "-"* ]]; then
    opts=$("${words[@]}" "$cur" ` + Flag + ` 2>/dev/null)
  else
    opts=$("${words[@]}" ` + Flag + ` 2>/dev/null)
  fi
  COMPREPLY=($(compgen -W "${opts}" -- "${cur}"))
}
complete -o bashdefault -o default -F _arena_complete arena
`

const zsh = `#compdef arena
# arena completion for zsh: source <(arena completion zsh)
_arena_complete() {
  local -a opts
  local cur
  cur=${words[-1]}
  if [[ "$cur" == "-"* ]]; then
    opts=("${(@f)$(${words[@]:0:#words[@]-1} ${cur} ` + Flag + ` 2>/dev/null)}")
  else
    opts=("${(@f)$(${words[@]:0:#words[@]-1} ` + Flag + ` 2>/dev/null)}")
  fi
  if [[ "${opts[1]}" != "" ]]; then
    _describe 'values' opts
  else
    _files
  fi
}
compdef _arena_complete arena
`

// ErrShell is Script's error for a shell it has no script for.
var ErrShell = errors.New("no completion script for that shell")

// Script is app's completion script for shell: bash, zsh or fish.
func Script(app *cli.App, shell string) (string, error) {
	switch shell {
	case "bash":
		return bash, nil
	case "zsh":
		return zsh, nil
	case "fish":
		return app.ToFishCompletion()
	}
	return "", ErrShell
}
