B{1}H{N:AKQJ.AKQ.AKQ.AKQ:T98.JT98.JT98.JT:765.765.765.9876:}A{NZ:1NPPP}C{1N:N}R{7+90}
B{2}H{N:AKQJ.AKQ.AKQ.AKQ
B{3}X{nothing}
B 4 an RBN line in an RBX file
B{5}{a comment never closed
B{6}H{W:AK2}A{WZ:P}
