package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// completionFlag is the hidden flag urfave/cli answers with the words
// that may come next (App.EnableBashCompletion); the scripts below call
// arena with it.
const completionFlag = "--generate-bash-completion"

// The bash and zsh scripts are urfave/cli's (autocomplete/), for the
// program arena.
const bashCompletion = `# arena completion for bash: source <(arena completion bash)
_arena_complete() {
  local cur words
  COMPREPLY=()
  cur="${COMP_WORDS[COMP_CWORD]}"
  words=("${COMP_WORDS[@]:0:$COMP_CWORD}")
  if [[ "$cur" == "-"* ]]; then
    opts=$("${words[@]}" "$cur" ` + completionFlag + ` 2>/dev/null)
  else
    opts=$("${words[@]}" ` + completionFlag + ` 2>/dev/null)
  fi
  COMPREPLY=($(compgen -W "${opts}" -- "${cur}"))
}
complete -o bashdefault -o default -F _arena_complete arena
`

const zshCompletion = `#compdef arena
# arena completion for zsh: source <(arena completion zsh)
_arena_complete() {
  local -a opts
  local cur
  cur=${words[-1]}
  if [[ "$cur" == "-"* ]]; then
    opts=("${(@f)$(${words[@]:0:#words[@]-1} ${cur} ` + completionFlag + ` 2>/dev/null)}")
  else
    opts=("${(@f)$(${words[@]:0:#words[@]-1} ` + completionFlag + ` 2>/dev/null)}")
  fi
  if [[ "${opts[1]}" != "" ]]; then
    _describe 'values' opts
  else
    _files
  fi
}
compdef _arena_complete arena
`

func completionCommand() *cli.Command {
	return withUsage(&cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script (bash, zsh or fish)",
		ArgsUsage: "SHELL",
		Description: `Completes commands and flags. Load it in the running shell, or install it:

   source <(arena completion bash)       # or put it in ~/.bashrc
   arena completion zsh > "${fpath[1]}/_arena"
   arena completion fish > ~/.config/fish/completions/arena.fish`,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("arena completion needs one SHELL: bash, zsh or fish")
			}
			switch shell := c.Args().First(); shell {
			case "bash":
				_, err := fmt.Fprint(c.App.Writer, bashCompletion)
				return err
			case "zsh":
				_, err := fmt.Fprint(c.App.Writer, zshCompletion)
				return err
			case "fish":
				script, err := c.App.ToFishCompletion()
				if err != nil {
					return err
				}
				_, err = fmt.Fprint(c.App.Writer, script)
				return err
			default:
				return usagef("arena completion %q: want bash, zsh or fish", shell)
			}
		},
	})
}
