set -x
ROUNDS=5 ./alt.sh run 2 mom_io -g 360,200,20 -t 2 -L 1 -d /tmp -r 5 -w 1 -q > rc_mom_l1_2.csv
ROUNDS=5 ./alt.sh run 8 pflotran_io -n 1048576 -d /tmp -r 5 -w 1 -q > rc_pfl_8.csv
ROUNDS=5 ./alt.sh run 2 part2d -p bb -s 256 -T float -d /tmp -r 5 -w 1 -q > rc_bbf4_2.csv
ROUNDS=5 ./alt.sh run 2 part2d -p sb -s 256 -T double -d /dev/shm -r 5 -w 1 -q > rc_sbf8_2_shm.csv
for np in 2 4; do ROUNDS=5 ./alt.sh run $np part2d -p sc -s 256 -T float -d /dev/shm -r 5 -w 1 -q > rc_scf4_${np}_shm.csv; done
ROUNDS=5 ./alt.sh run 4 part2d -p bs -s 256 -T float -d /dev/shm -r 5 -w 1 -q > rc_bsf4_4_shm.csv
ROUNDS=5 ./alt.sh run 8 part2d -p bb -s 256 -T double -m indep -d /dev/shm -r 5 -w 1 -q > rc_bbf8_8_shm.csv
ROUNDS=5 ./alt.sh run 8 flash_io -n 80 -b 8 -d /dev/shm -r 5 -w 1 -q > rc_flash_8_shm.csv
ROUNDS=5 ./alt.sh run 1 flash_io -n 80 -b 8 -d /dev/shm -r 5 -w 1 -q > rc_flash_1_shm.csv
