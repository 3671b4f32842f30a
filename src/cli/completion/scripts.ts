/**
 * The completion scripts of bash, zsh and fish, written from the one {@link CompletionModel}.
 * Each walks the words typed so far (skipping flags, and the value of a flag that takes one) to
 * a place of the model, then offers its words, or its flags when the word begun starts with `-`;
 * after a flag with choices it offers them, after a file flag files.
 * @module
 */
import type { CompletionModel, Place } from './model';

/** A shell word in single quotes (bash, zsh). */
const quoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
/** A fish word in single quotes. */
const fishQuoted = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

/** The `case` patterns of a place in bash and zsh: its path, and, when ids may follow, its path and more. */
const patterns = (place: Place) => [quoted(place.path), ...(place.open ? [`${quoted(`${place.path} `)}*`] : [])].join('|');
/** The same in fish, whose `case` matches a quoted `*` as a wildcard (and would expand a bare one as a file name). */
const fishPatterns = (place: Place) => [fishQuoted(place.path), ...(place.open ? [fishQuoted(`${place.path} *`)] : [])].join(' ');

/** Flags whose value the script cannot offer (neither one of a few words nor a file). */
const freeValueFlags = (model: CompletionModel) =>
  model.valueFlags.filter((flag) => !model.choices.has(flag) && !model.fileFlags.includes(flag));

const words = (place: Place) => place.words.map(({ word }) => word).join(' ');

export function bashScript(model: CompletionModel): string {
  const choices = [...model.choices].map(
    ([flag, values]) => `    ${flag}) COMPREPLY=($(compgen -W ${quoted(values.join(' '))} -- "$cur")); return ;;`,
  );
  const places = model.places.map(
    (place) => `    ${patterns(place)}) words=${quoted(words(place))}; flags=${quoted(place.flags.join(' '))} ;;`,
  );
  return `# bash completion for community-server. Load it in ~/.bashrc:
#   source <(community-server completion bash)
_community_server() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  case "$prev" in
${choices.join('\n')}
    ${model.fileFlags.join('|')}) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    ${freeValueFlags(model).join('|')}) COMPREPLY=(); return ;;
  esac
  local cmdpath="" word i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    case "$word" in
      ${model.valueFlags.join('|')}) ((i++)) ;;
      -*) ;;
      *) cmdpath="\${cmdpath:+$cmdpath }$word" ;;
    esac
  done
  local words="" flags=""
  case "$cmdpath" in
${places.join('\n')}
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
  fi
}
complete -F _community_server community-server
`;
}

export function zshScript(model: CompletionModel): string {
  const choices = [...model.choices].map(([flag, values]) => `    ${flag}) compadd -- ${values.join(' ')}; return ;;`);
  const places = model.places.map(
    (place) =>
      `    ${patterns(place)}) candidates=(${place.words.map(({ word, summary }) => quoted(`${word}:${summary}`)).join(' ')}); flags=(${place.flags.join(' ')}) ;;`,
  );
  return `#compdef community-server
# zsh completion for community-server. Load it in ~/.zshrc, after compinit:
#   source <(community-server completion zsh)
_community_server() {
  local cur=\${words[CURRENT]} prev=\${words[CURRENT-1]}
  case $prev in
${choices.join('\n')}
    ${model.fileFlags.join('|')}) _files; return ;;
    ${freeValueFlags(model).join('|')}) return ;;
  esac
  local cmdpath='' word i
  for ((i = 2; i < CURRENT; i++)); do
    word=\${words[i]}
    case $word in
      ${model.valueFlags.join('|')}) ((i++)) ;;
      -*) ;;
      *) cmdpath="\${cmdpath:+$cmdpath }$word" ;;
    esac
  done
  local -a candidates flags
  case $cmdpath in
${places.join('\n')}
  esac
  if [[ $cur == -* ]]; then
    compadd -- $flags
  else
    _describe -t commands 'community-server command' candidates
  fi
}
if [[ $funcstack[1] = _community_server ]]; then
  _community_server "$@"
else
  compdef _community_server community-server
fi
`;
}

export function fishScript(model: CompletionModel): string {
  const choices = [...model.choices].map(
    ([flag, values]) => `        case ${flag}\n            printf '%s\\n' ${values.join(' ')}\n            return`,
  );
  const places = model.places.map((place) => {
    const candidates = place.words.flatMap(({ word, summary }) => [fishQuoted(word), fishQuoted(summary)]).join(' ');
    return `        case ${fishPatterns(place)}
            set flags ${place.flags.join(' ')}${candidates ? `\n            set candidates ${candidates}` : ''}`;
  });
  return `# fish completion for community-server. Install it with:
#   community-server completion fish > ~/.config/fish/completions/community-server.fish
function __community_server_complete
    set -l tokens (commandline -opc)
    set -l current (commandline -ct)
    switch $tokens[-1]
${choices.join('\n')}
        case ${model.fileFlags.join(' ')}
            __fish_complete_path $current
            return
        case ${freeValueFlags(model).join(' ')}
            return
    end
    set -e tokens[1]
    set -l cmdpath
    set -l skip 0
    for token in $tokens
        if test $skip = 1
            set skip 0
            continue
        end
        switch $token
            case ${model.valueFlags.join(' ')}
                set skip 1
            case '-*'
            case '*'
                set -a cmdpath $token
        end
    end
    set -l flags
    set -l candidates
    switch "$cmdpath"
${places.join('\n')}
    end
    if string match -q -- '-*' $current
        printf '%s\\n' $flags
    else
        printf '%s\\t%s\\n' $candidates
    end
end
complete -c community-server -f -a '(__community_server_complete)'
`;
}
