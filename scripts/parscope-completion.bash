# bash completion for parscope (installed as bash-completion/completions/parscope).
# Commands, options and workloads are read from parscope itself (--help,
# 'parscope workloads'), so the completion follows the program it completes.

_parscope_commands() {
    "$1" --help 2>/dev/null | awk '/^commands:/ {c = 1; next} c && /^  [a-z]/ {print $1} c && /^$/ {exit}'
}

_parscope_options() {
    "$1" "$2" --help 2>/dev/null | grep -oE -- '(^|[[:space:],])--?[a-zA-Z][a-zA-Z0-9-]*' | tr -d ' ,\t' | sort -u
}

_parscope_workloads() {
    "$1" workloads 2>/dev/null | awk 'NR > 1 {print $1; if ($2 !~ /^[0-9]+$/) print $2}'
}

_parscope() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} ps=${COMP_WORDS[0]}
    COMPREPLY=()
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "$(_parscope_commands "$ps") --help --version" -- "$cur"))
        return
    fi
    local cmd=${COMP_WORDS[1]}
    case "$prev" in
        -f|--format)
            [ "$cmd" = export ] && COMPREPLY=($(compgen -W "otf2 perfetto csv" -- "$cur"))
            return ;;
        --variant)
            COMPREPLY=($(compgen -W "full comm data sections" -- "$cur"))
            return ;;
        -m|--machine)
            COMPREPLY=($(compgen -f -X '!*.ini' -- "$cur") $(compgen -d -- "$cur"))
            return ;;
        -o|--output|--trace|--streams|--json|--svg-dir|-t|--title)
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
        -n|--ranks|-s|--size|-i|--iterations|-k|--trials|--timeout|--max-ranks|--budget)
            return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_parscope_options "$ps" "$cmd")" -- "$cur"))
        return
    fi
    case "$cmd" in
        run|predict|whitebox|scale)
            COMPREPLY=($(compgen -W "$(_parscope_workloads "$ps")" -- "$cur") $(compgen -f -X '!*.loop' -- "$cur")
                       $(compgen -d -- "$cur")) ;;
        gen|build)
            COMPREPLY=($(compgen -f -X '!*.loop' -- "$cur") $(compgen -d -- "$cur")) ;;
        *)
            COMPREPLY=($(compgen -f -- "$cur")) ;;
    esac
}
complete -F _parscope parscope
